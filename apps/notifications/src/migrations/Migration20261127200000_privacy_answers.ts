import { Migration } from '@mikro-orm/migrations';

/** The service's answers to personal data requests (`privacy_answers`, @academy/privacy). Expand-only. */
export class Migration20261127200000_privacy_answers extends Migration {

  override name = 'Migration20261127200000_privacy_answers';

  override up(): void | Promise<void> {
    this.addSql(`create table if not exists "privacy_answers" ("request_id" uuid not null, "kind" varchar(255) not null, "subject_kind" varchar(255) not null, "subject_id" int not null, "status" varchar(255) not null, "reason" text null, "attempts" int not null default 0, "answer" jsonb null, "entries" jsonb null, "answered_at" timestamptz null, "expires_at" timestamptz null, "updated_at" timestamptz not null, constraint "privacy_answers_pkey" primary key ("request_id"));`);
    this.addSql(`create index if not exists "privacy_answers_expires_at_index" on "privacy_answers" ("expires_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "privacy_answers";`);
  }

}
