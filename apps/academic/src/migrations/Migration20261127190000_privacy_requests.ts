import { Migration } from '@mikro-orm/migrations';

/**
 * Personal data requests (issue 35): the requests academic opens and tracks (one running per person:
 * a partial unique index), each service's answer, the audit trail; academic's own answers
 * (`privacy_answers`, @academy/privacy); and when a person was erased (kept rows restricted). Expand-only.
 */
export class Migration20261127190000_privacy_requests extends Migration {

  override name = 'Migration20261127190000_privacy_requests';

  override up(): void | Promise<void> {
    this.addSql(`create table "privacy_answers" ("request_id" uuid not null, "kind" varchar(255) not null, "subject_kind" varchar(255) not null, "subject_id" int not null, "status" varchar(255) not null, "reason" text null, "attempts" int not null default 0, "answer" jsonb null, "entries" jsonb null, "answered_at" timestamptz null, "expires_at" timestamptz null, "updated_at" timestamptz not null, constraint "privacy_answers_pkey" primary key ("request_id"));`);
    this.addSql(`create index "privacy_answers_expires_at_index" on "privacy_answers" ("expires_at");`);

    this.addSql(`create table "privacy_requests" ("id" serial not null, "request_id" uuid not null unique, "kind" text not null check ("kind" in ('access', 'erasure')), "subject_kind" text not null check ("subject_kind" in ('employee', 'student', 'guardian')), "subject_id" int not null, "user_id" int null, "locale" text not null, "status" text not null default 'open' check ("status" in ('open', 'completed', 'failed')), "services" text[] not null, "opened_by_user_id" int not null, "opened_at" timestamptz not null, "deadline" timestamptz not null, "completed_at" timestamptz null, constraint "privacy_requests_pkey" primary key ("id"));`);
    this.addSql(`create unique index "privacy_requests_one_running" on "privacy_requests" ("subject_kind", "subject_id") where "status" = 'open';`);
    this.addSql(`create index "privacy_requests_subject_index" on "privacy_requests" ("subject_kind", "subject_id", "opened_at" desc);`);
    this.addSql(`create index "privacy_requests_opened_at_index" on "privacy_requests" ("opened_at" desc);`);

    this.addSql(`create table "privacy_request_parts" ("request_id" uuid not null references "privacy_requests" ("request_id"), "service" text not null, "status" text not null default 'pending' check ("status" in ('pending', 'done', 'nothing-held', 'failed')), "reason" text null, "attempts" int not null default 0, "answer" jsonb null, "answered_at" timestamptz null, constraint "privacy_request_parts_pkey" primary key ("request_id", "service"));`);

    this.addSql(`create table "privacy_request_audit" ("id" bigserial not null, "request_id" uuid not null references "privacy_requests" ("request_id"), "action" text not null, "by_user_id" int null, "at" timestamptz not null, "detail" text null, constraint "privacy_request_audit_pkey" primary key ("id"));`);
    this.addSql(`create index "privacy_request_audit_request_index" on "privacy_request_audit" ("request_id", "id");`);

    for (const table of ['users', 'employees', 'students', 'guardians']) this.addSql(`alter table "${table}" add column if not exists "erased_at" timestamptz null;`);
  }

  override down(): void | Promise<void> {
    for (const table of ['users', 'employees', 'students', 'guardians']) this.addSql(`alter table "${table}" drop column if exists "erased_at";`);
    this.addSql(`drop table if exists "privacy_request_audit";`);
    this.addSql(`drop table if exists "privacy_request_parts";`);
    this.addSql(`drop table if exists "privacy_requests";`);
    this.addSql(`drop table if exists "privacy_answers";`);
  }

}
