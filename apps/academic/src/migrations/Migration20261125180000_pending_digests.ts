import { Migration } from '@mikro-orm/migrations';

// Declared by hand (written by raw SQL only, no entity): one row per admin and academy day whose
// approval digest was recorded. Inserted with ON CONFLICT DO NOTHING in the transaction of the
// digest's outbox row, so however many instances run the daily check, an admin gets one a day.
export class Migration20261125180000_pending_digests extends Migration {

  override name = 'Migration20261125180000_pending_digests';

  override up(): void | Promise<void> {
    this.addSql(`create table "pending_digests" ("user_id" int not null, "day" date not null, "pending_count" int not null, "sent_at" timestamptz not null, constraint "pending_digests_pkey" primary key ("user_id", "day"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "pending_digests";`);
  }

}
