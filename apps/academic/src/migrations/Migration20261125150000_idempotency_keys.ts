import { Migration } from '@mikro-orm/migrations';

export class Migration20261125150000_idempotency_keys extends Migration {

  override name = 'Migration20261125150000_idempotency_keys';

  override up(): void | Promise<void> {
    this.addSql(`create table "idempotency_keys" ("scope" varchar(600) not null, "key" varchar(255) not null, "fingerprint" varchar(64) not null, "status" int not null, "content_type" varchar(255) null, "body" text not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, primary key ("scope", "key"));`);
    this.addSql(`create index "idempotency_keys_expires_at_index" on "idempotency_keys" ("expires_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "idempotency_keys" cascade;`);
  }

}
