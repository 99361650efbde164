import { Migration } from '@mikro-orm/migrations';

export class Migration20261122053241_initial extends Migration {

  override name = 'Migration20261122053241_initial';

  override up(): void | Promise<void> {
    this.addSql(`create table "inbox" ("event_id" uuid not null, "consumer" varchar(255) not null, "type" varchar(255) not null, "processed_at" timestamptz not null, primary key ("event_id", "consumer"));`);

    this.addSql(`create table "outbox" ("id" bigserial primary key, "event_id" uuid not null, "type" varchar(255) not null, "envelope" jsonb not null, "created_at" timestamptz not null, "available_at" timestamptz not null, "published_at" timestamptz null, "attempts" int not null default 0, "last_error" text null);`);
    this.addSql(`alter table "outbox" add constraint "outbox_event_id_unique" unique ("event_id");`);
    this.addSql(`create index "outbox_available_at_index" on "outbox" ("available_at");`);
    this.addSql(`create index "outbox_published_at_index" on "outbox" ("published_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "inbox" cascade;`);
    this.addSql(`drop table if exists "outbox" cascade;`);
  }

}
