import { Migration } from '@mikro-orm/migrations';

export class Migration20261123052608_device_tokens_deliveries extends Migration {

  override name = 'Migration20261123052608_device_tokens_deliveries';

  override up(): void | Promise<void> {
    this.addSql(`create table "deliveries" ("id" bigserial primary key, "event_id" varchar(100) not null, "event_type" varchar(100) not null, "channel" text not null, "recipient" varchar(320) not null, "user_id" int null, "template" varchar(100) null, "subject" text null, "payload" jsonb null, "detail" jsonb null, "status" text not null, "attempts" int not null default 0, "last_error" text null, "next_attempt_at" timestamptz null, "sent_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "deliveries_status_next_attempt_at_index" on "deliveries" ("status", "next_attempt_at");`);
    this.addSql(`create index "deliveries_created_at_index" on "deliveries" ("created_at");`);
    this.addSql(`create index "deliveries_user_id_index" on "deliveries" ("user_id");`);
    this.addSql(`alter table "deliveries" add constraint "deliveries_event_recipient_channel_unique" unique ("event_id", "recipient", "channel");`);

    this.addSql(`create table "device_tokens" ("id" serial primary key, "user_id" int not null, "device_id" varchar(200) not null, "token" text not null, "platform" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "last_seen_at" timestamptz not null);`);
    this.addSql(`alter table "device_tokens" add constraint "device_tokens_token_unique" unique ("token");`);
    this.addSql(`create index "device_tokens_last_seen_at_index" on "device_tokens" ("last_seen_at");`);
    this.addSql(`alter table "device_tokens" add constraint "device_tokens_user_id_device_id_unique" unique ("user_id", "device_id");`);

    this.addSql(`create table "push_sends" ("idempotency_key" varchar(200) not null, "send_id" uuid not null, "request_hash" varchar(64) not null, "response" jsonb null, "created_at" timestamptz not null, primary key ("idempotency_key"));`);
    this.addSql(`create index "push_sends_created_at_index" on "push_sends" ("created_at");`);

    this.addSql(`create table "recorded_pushes" ("id" bigserial primary key, "message" jsonb not null, "tokens" jsonb not null, "token_count" int not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "recorded_pushes_created_at_index" on "recorded_pushes" ("created_at");`);

    this.addSql(`alter table "deliveries" add constraint "deliveries_channel_check" check ("channel" in ('email', 'push'));`);
    this.addSql(`alter table "deliveries" add constraint "deliveries_status_check" check ("status" in ('pending', 'sending', 'sent', 'recorded', 'failed', 'parked'));`);

    this.addSql(`alter table "device_tokens" add constraint "device_tokens_platform_check" check ("platform" in ('ios', 'android'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "deliveries" cascade;`);
    this.addSql(`drop table if exists "device_tokens" cascade;`);
    this.addSql(`drop table if exists "push_sends" cascade;`);
    this.addSql(`drop table if exists "recorded_pushes" cascade;`);
  }

}
