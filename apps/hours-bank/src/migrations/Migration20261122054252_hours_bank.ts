import { Migration } from '@mikro-orm/migrations';

export class Migration20261122054252_hours_bank extends Migration {

  override name = 'Migration20261122054252_hours_bank';

  override up(): void | Promise<void> {
    this.addSql(`create table "employees" ("id" int not null, "user_id" int null, "name" varchar(255) null, "email" varchar(254) null, "active" boolean not null default true, "deleted" boolean not null default false, "source_version" timestamptz not null, primary key ("id"));`);

    this.addSql(`create table "hours_banks" ("id" serial primary key, "employee_id" int not null, "school_course_id" int not null, "pending_minutes" int not null default 0, "completed_minutes" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "hours_banks" add constraint "hours_banks_employee_id_school_course_id_unique" unique ("employee_id", "school_course_id");`);

    this.addSql(`create table "hours_transactions" ("id" serial primary key, "hours_bank_id" int not null, "school_course_id" int not null, "transaction_date" date not null, "type" text not null, "total_minutes" int not null, "pending_affected_minutes" int not null, "completed_affected_minutes" int not null, "reason" text null, "is_active" boolean not null, "reverses_transaction_id" int null, "replaces_transaction_id" int null, "created_at" timestamptz not null, "created_by" int null);`);
    this.addSql(`create index "hours_transactions_hours_bank_id_created_at_index" on "hours_transactions" ("hours_bank_id", "created_at");`);

    this.addSql(`create table "school_courses" ("id" int not null, "name" varchar(255) null, "start_date" date null, "end_date" date null, "deleted" boolean not null default false, "source_version" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "school_courses_start_date_id_index" on "school_courses" ("start_date", "id");`);

    this.addSql(`alter table "hours_transactions" add constraint "hours_transactions_hours_bank_id_foreign" foreign key ("hours_bank_id") references "hours_banks" ("id");`);
    this.addSql(`alter table "hours_transactions" add constraint "hours_transactions_type_check" check ("type" in ('COMPLETED', 'PENDING', 'REVERSAL'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "hours_transactions" drop constraint "hours_transactions_hours_bank_id_foreign";`);

    this.addSql(`drop table if exists "employees" cascade;`);
    this.addSql(`drop table if exists "hours_banks" cascade;`);
    this.addSql(`drop table if exists "hours_transactions" cascade;`);
    this.addSql(`drop table if exists "school_courses" cascade;`);
  }

}
