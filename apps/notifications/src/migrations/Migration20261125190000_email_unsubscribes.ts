import { Migration } from '@mikro-orm/migrations';

// Declared by hand (written by raw SQL only, no entity): the address-level opt-outs a guardian's
// unsubscribe link records, one row per address (lower case) and notification type.
export class Migration20261125190000_email_unsubscribes extends Migration {

  override name = 'Migration20261125190000_email_unsubscribes';

  override up(): void | Promise<void> {
    this.addSql(`create table "email_unsubscribes" ("recipient" text not null, "type" text not null, "created_at" timestamptz not null, primary key ("recipient", "type"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "email_unsubscribes";`);
  }

}
