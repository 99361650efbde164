import { Migration } from '@mikro-orm/migrations';

export class Migration20261125145140_initial extends Migration {

  override name = 'Migration20261125145140_initial';

  override up(): void | Promise<void> {
    this.addSql(`create table "employees" ("id" int not null, "user_id" int null, "name" varchar(255) null, "email" varchar(254) null, "tax_id" varchar(9) null, "payroll_code" varchar(32) null, "active" boolean not null default true, "deleted" boolean not null default false, "source_version" timestamptz not null, primary key ("id"));`);

    this.addSql(`create table "idempotency_keys" ("scope" varchar(600) not null, "key" varchar(255) not null, "fingerprint" varchar(64) not null, "status" int not null, "content_type" varchar(255) null, "body" text not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, primary key ("scope", "key"));`);
    this.addSql(`create index "idempotency_keys_expires_at_index" on "idempotency_keys" ("expires_at");`);

    this.addSql(`create table "inbox" ("event_id" uuid not null, "consumer" varchar(255) not null, "type" varchar(255) not null, "processed_at" timestamptz not null, primary key ("event_id", "consumer"));`);

    this.addSql(`create table "outbox" ("id" bigserial primary key, "event_id" uuid not null, "type" varchar(255) not null, "envelope" jsonb not null, "created_at" timestamptz not null, "available_at" timestamptz not null, "published_at" timestamptz null, "attempts" int not null default 0, "last_error" text null);`);
    this.addSql(`alter table "outbox" add constraint "outbox_event_id_unique" unique ("event_id");`);
    this.addSql(`create index "outbox_available_at_index" on "outbox" ("available_at");`);
    this.addSql(`create index "outbox_published_at_index" on "outbox" ("published_at");`);

    this.addSql(`create table "payslips" ("id" serial primary key, "employee_id" int not null, "label" varchar(120) not null, "period_start" date not null, "period_end" date not null, "issued_on" date not null, "size_bytes" int not null, "sha256" varchar(64) not null, "storage_key" varchar(64) not null, "batch_id" int null, "supersedes_id" int null, "superseded_by_id" int null, "superseded_at" timestamptz null, "created_at" timestamptz not null, "created_by_user_id" int null, "first_viewed_at" timestamptz null, "deleted_at" timestamptz null, "deleted_by_user_id" int null, "delete_reason" text null);`);
    this.addSql(`create index "payslips_employee_id_period_start_index" on "payslips" ("employee_id", "period_start");`);
    this.addSql(`create index "payslips_period_start_index" on "payslips" ("period_start");`);
    this.addSql(`create index "payslips_batch_id_index" on "payslips" ("batch_id");`);
    this.addSql(`create unique index "payslips_employee_id_sha256_unique" on "payslips" ("employee_id", "sha256") where "deleted_at" is null;`);

    this.addSql(`create table "payslip_batches" ("id" serial primary key, "status" text not null, "failure_reason" text null, "label" varchar(120) not null, "period_start" date not null, "period_end" date not null, "issued_on" date not null, "match_by" text not null, "page_count" int not null, "size_bytes" int not null, "storage_key" varchar(64) null, "created_at" timestamptz not null, "created_by_user_id" int null, "read_started_at" timestamptz null, "read_at" timestamptz null, "published_at" timestamptz null, "discarded_at" timestamptz null);`);
    this.addSql(`create index "payslip_batches_status_read_started_at_index" on "payslip_batches" ("status", "read_started_at");`);

    this.addSql(`create table "payslip_batch_pages" ("batch_id" int not null, "page" int not null, "candidate_ids" jsonb not null, "excerpt" text not null, "assigned_employee_id" int null, "payslip_id" int null, primary key ("batch_id", "page"));`);

    this.addSql(`create table "school_courses" ("id" int not null, "name" varchar(255) null, "start_date" date null, "end_date" date null, "deleted" boolean not null default false, "source_version" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "school_courses_start_date_id_index" on "school_courses" ("start_date", "id");`);

    this.addSql(`alter table "payslip_batches" add constraint "payslip_batches_status_check" check ("status" in ('reading', 'ready', 'published', 'discarded', 'failed'));`);
    this.addSql(`alter table "payslip_batches" add constraint "payslip_batches_match_by_check" check ("match_by" in ('taxId', 'payrollCode'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "employees" cascade;`);
    this.addSql(`drop table if exists "idempotency_keys" cascade;`);
    this.addSql(`drop table if exists "inbox" cascade;`);
    this.addSql(`drop table if exists "outbox" cascade;`);
    this.addSql(`drop table if exists "payslips" cascade;`);
    this.addSql(`drop table if exists "payslip_batches" cascade;`);
    this.addSql(`drop table if exists "payslip_batch_pages" cascade;`);
    this.addSql(`drop table if exists "school_courses" cascade;`);
  }

}
