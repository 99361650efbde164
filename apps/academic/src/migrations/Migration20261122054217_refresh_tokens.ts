import { Migration } from '@mikro-orm/migrations';

export class Migration20261122054217_refresh_tokens extends Migration {

  override name = 'Migration20261122054217_refresh_tokens';

  override up(): void | Promise<void> {
    this.addSql(`create table "refresh_tokens" ("id" serial primary key, "token_hash" varchar(64) not null, "family_id" uuid not null, "user_id" int not null, "expires_at" timestamptz not null, "used_at" timestamptz null, "revoked_at" timestamptz null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "refresh_tokens" add constraint "refresh_tokens_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "refresh_tokens_family_id_index" on "refresh_tokens" ("family_id");`);
    this.addSql(`create index "refresh_tokens_user_id_index" on "refresh_tokens" ("user_id");`);

    this.addSql(`alter table "refresh_tokens" add constraint "refresh_tokens_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "refresh_tokens" cascade;`);
  }

}
