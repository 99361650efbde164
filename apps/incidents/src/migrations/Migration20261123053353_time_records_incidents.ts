import { Migration } from '@mikro-orm/migrations';

export class Migration20261123053353_time_records_incidents extends Migration {

  override name = 'Migration20261123053353_time_records_incidents';

  override up(): void | Promise<void> {
    this.addSql(`create table "employees" ("id" int not null, "user_id" int null, "name" varchar(255) null, "email" varchar(254) null, "active" boolean not null default true, "deleted" boolean not null default false, "source_version" timestamptz not null, primary key ("id"));`);

    this.addSql(`create table "incidents" ("id" serial primary key, "employee_id" int not null, "employee_user_id" int null, "kind" text not null, "severity" text not null, "status" text not null default 'open', "description" text not null, "source" text null, "device_id" varchar(128) null, "time_record_id" int null, "day" date null, "proposed_end_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "closed_at" timestamptz null, "closed_by" int null, "deleted_at" timestamptz null, "deleted_by" int null);`);
    this.addSql(`create index "incidents_employee_id_created_at_index" on "incidents" ("employee_id", "created_at");`);
    this.addSql(`create index "incidents_status_created_at_index" on "incidents" ("status", "created_at");`);
    this.addSql(`alter table "incidents" add constraint "incidents_time_record_kind_unique" unique ("time_record_id", "kind");`);
    this.addSql(`alter table "incidents" add constraint "incidents_employee_day_kind_unique" unique ("employee_id", "day", "kind");`);

    this.addSql(`create table "incident_messages" ("id" serial primary key, "incident_id" int not null, "author_role" text not null, "author_user_id" int null, "body" text not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "incident_messages_incident_id_created_at_index" on "incident_messages" ("incident_id", "created_at");`);

    this.addSql(`create table "incident_files" ("id" serial primary key, "incident_id" int not null, "message_id" int not null, "file_name" varchar(255) not null, "content_type" varchar(100) not null, "size_bytes" int not null, "storage_key" varchar(100) not null, "uploaded_by" int null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "incident_files" add constraint "incident_files_storage_key_unique" unique ("storage_key");`);
    this.addSql(`create index "incident_files_incident_id_index" on "incident_files" ("incident_id");`);
    this.addSql(`create index "incident_files_message_id_index" on "incident_files" ("message_id");`);

    this.addSql(`create table "school_courses" ("id" int not null, "name" varchar(255) null, "start_date" date null, "end_date" date null, "deleted" boolean not null default false, "source_version" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "school_courses_start_date_id_index" on "school_courses" ("start_date", "id");`);

    this.addSql(`create table "time_records" ("id" serial primary key, "employee_id" int not null, "clock_in_at" timestamptz not null, "clock_out_at" timestamptz null, "clock_in_source" text not null, "clock_in_device_id" varchar(128) null, "clock_out_source" text null, "clock_out_device_id" varchar(128) null, "created_at" timestamptz not null);`);
    this.addSql(`create index "time_records_employee_id_clock_in_at_index" on "time_records" ("employee_id", "clock_in_at");`);

    this.addSql(`alter table "incidents" add constraint "incidents_one_key_check" check ((time_record_id is null) <> (day is null));`);
    this.addSql(`alter table "incidents" add constraint "incidents_kind_check" check ("kind" in ('CLOCK_IN_WHILE_OPEN', 'CLOCK_OUT_WITHOUT_OPEN', 'RECORD_OPEN_TOO_LONG', 'ABSENCE'));`);
    this.addSql(`alter table "incidents" add constraint "incidents_severity_check" check ("severity" in ('low', 'medium', 'high'));`);
    this.addSql(`alter table "incidents" add constraint "incidents_status_check" check ("status" in ('open', 'closed'));`);
    this.addSql(`alter table "incidents" add constraint "incidents_source_check" check ("source" in ('App', 'Web'));`);

    this.addSql(`alter table "incident_messages" add constraint "incident_messages_incident_id_foreign" foreign key ("incident_id") references "incidents" ("id");`);
    this.addSql(`alter table "incident_messages" add constraint "incident_messages_author_role_check" check ("author_role" in ('employee', 'admin'));`);

    this.addSql(`alter table "incident_files" add constraint "incident_files_incident_id_foreign" foreign key ("incident_id") references "incidents" ("id");`);
    this.addSql(`alter table "incident_files" add constraint "incident_files_message_id_foreign" foreign key ("message_id") references "incident_messages" ("id");`);

    this.addSql(`alter table "time_records" add constraint "time_records_order_check" check (clock_out_at is null or clock_out_at >= clock_in_at);`);
    this.addSql(`alter table "time_records" add constraint "time_records_clock_in_source_check" check ("clock_in_source" in ('App', 'Web'));`);
    this.addSql(`alter table "time_records" add constraint "time_records_clock_out_source_check" check ("clock_out_source" in ('App', 'Web'));`);

    // By hand (entities cannot express partial indexes): at most one open record per employee, the
    // key that makes concurrent or retried clock-ins safe; and the scheduled check's scan of open records.
    this.addSql(`create unique index "time_records_one_open_per_employee" on "time_records" ("employee_id") where "clock_out_at" is null;`);
    this.addSql(`create index "time_records_open_clock_in_at_index" on "time_records" ("clock_in_at") where "clock_out_at" is null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "incident_messages" drop constraint "incident_messages_incident_id_foreign";`);
    this.addSql(`alter table "incident_files" drop constraint "incident_files_incident_id_foreign";`);
    this.addSql(`alter table "incident_files" drop constraint "incident_files_message_id_foreign";`);

    this.addSql(`drop table if exists "employees" cascade;`);
    this.addSql(`drop table if exists "incidents" cascade;`);
    this.addSql(`drop table if exists "incident_messages" cascade;`);
    this.addSql(`drop table if exists "incident_files" cascade;`);
    this.addSql(`drop table if exists "school_courses" cascade;`);
    this.addSql(`drop table if exists "time_records" cascade;`);
  }

}
