import { Migration } from '@mikro-orm/migrations';

export class Migration20261122054031_academic_core extends Migration {

  override name = 'Migration20261122054031_academic_core';

  override up(): void | Promise<void> {
    this.addSql(`create table "blocks" ("id" serial primary key, "subject_id" int not null, "name" varchar(120) not null, "position" int not null);`);
    this.addSql(`alter table "blocks" add constraint "blocks_subject_id_position_unique" unique ("subject_id", "position");`);

    this.addSql(`create table "calendar_events" ("id" serial primary key, "title" varchar(200) null, "subject_id" int not null, "center_id" int not null, "employee_id" int null, "starts_at" timestamptz not null, "ends_at" timestamptz not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "calendar_events_employee_id_index" on "calendar_events" ("employee_id");`);
    this.addSql(`create index "calendar_events_subject_id_center_id_index" on "calendar_events" ("subject_id", "center_id");`);
    this.addSql(`create index "calendar_events_starts_at_index" on "calendar_events" ("starts_at");`);

    this.addSql(`create table "centers" ("id" serial primary key, "name" varchar(120) not null, "address" varchar(255) null, "active" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "centers" add constraint "centers_name_unique" unique ("name");`);

    this.addSql(`create table "employees" ("id" serial primary key, "user_id" int null, "name" varchar(100) not null, "lastname" varchar(100) not null, "email" varchar(254) null, "kind" text not null default 'teacher', "active" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "employees" add constraint "employees_user_id_unique" unique ("user_id");`);

    this.addSql(`create table "employee_subjects" ("employee_id" int not null, "subject_id" int not null, "created_at" timestamptz not null, primary key ("employee_id", "subject_id"));`);
    this.addSql(`create index "employee_subjects_subject_id_index" on "employee_subjects" ("subject_id");`);

    this.addSql(`create table "event_students" ("event_id" int not null, "student_id" int not null, "assigned_at" timestamptz not null, primary key ("event_id", "student_id"));`);
    this.addSql(`create index "event_students_student_id_index" on "event_students" ("student_id");`);

    this.addSql(`create table "guardians" ("id" serial primary key, "name" varchar(100) not null, "lastname" varchar(100) not null default '', "email" varchar(254) not null, "phone" varchar(40) null, "active" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);

    this.addSql(`create table "registrations" ("id" serial primary key, "student_id" int not null, "school_course_id" int not null, "subject_id" int not null, "center_id" int not null, "employee_id" int null, "status" text not null default 'pending', "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "registrations_employee_id_index" on "registrations" ("employee_id");`);
    this.addSql(`create index "registrations_school_course_id_student_id_index" on "registrations" ("school_course_id", "student_id");`);
    this.addSql(`create index "registrations_subject_id_center_id_school_course_id_index" on "registrations" ("subject_id", "center_id", "school_course_id");`);
    this.addSql(`alter table "registrations" add constraint "registrations_student_id_school_course_id_subject_id_unique" unique ("student_id", "school_course_id", "subject_id");`);

    this.addSql(`create table "school_courses" ("id" serial primary key, "name" varchar(60) not null, "start_date" date not null, "end_date" date not null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "school_courses" add constraint "school_courses_name_unique" unique ("name");`);

    this.addSql(`create table "students" ("id" serial primary key, "name" varchar(100) not null, "lastname" varchar(100) not null, "email" varchar(254) null, "status" text not null default 'active', "guardian_id" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "students_guardian_id_index" on "students" ("guardian_id");`);

    this.addSql(`create table "subjects" ("id" serial primary key, "name" varchar(120) not null, "active" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "subjects" add constraint "subjects_name_unique" unique ("name");`);

    this.addSql(`alter table "employees" add constraint "employees_kind_check" check ("kind" in ('teacher', 'staff'));`);

    this.addSql(`alter table "registrations" add constraint "registrations_status_check" check ("status" in ('pending', 'active', 'cancelled'));`);

    this.addSql(`alter table "students" add constraint "students_status_check" check ("status" in ('active', 'inactive', 'withdrawn'));`);

    // Foreign keys (the entities keep ids as plain integers).
    this.addSql(`alter table "employees" add constraint "employees_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete set null;`);
    this.addSql(`alter table "students" add constraint "students_guardian_id_foreign" foreign key ("guardian_id") references "guardians" ("id") on delete set null;`);
    this.addSql(`alter table "blocks" add constraint "blocks_subject_id_foreign" foreign key ("subject_id") references "subjects" ("id") on delete cascade;`);
    this.addSql(`alter table "registrations" add constraint "registrations_student_id_foreign" foreign key ("student_id") references "students" ("id") on delete restrict;`);
    this.addSql(`alter table "registrations" add constraint "registrations_school_course_id_foreign" foreign key ("school_course_id") references "school_courses" ("id") on delete restrict;`);
    this.addSql(`alter table "registrations" add constraint "registrations_subject_id_foreign" foreign key ("subject_id") references "subjects" ("id") on delete restrict;`);
    this.addSql(`alter table "registrations" add constraint "registrations_center_id_foreign" foreign key ("center_id") references "centers" ("id") on delete restrict;`);
    this.addSql(`alter table "registrations" add constraint "registrations_employee_id_foreign" foreign key ("employee_id") references "employees" ("id") on delete set null;`);
    this.addSql(`alter table "calendar_events" add constraint "calendar_events_subject_id_foreign" foreign key ("subject_id") references "subjects" ("id") on delete restrict;`);
    this.addSql(`alter table "calendar_events" add constraint "calendar_events_center_id_foreign" foreign key ("center_id") references "centers" ("id") on delete restrict;`);
    this.addSql(`alter table "calendar_events" add constraint "calendar_events_employee_id_foreign" foreign key ("employee_id") references "employees" ("id") on delete set null;`);
    this.addSql(`alter table "calendar_events" add constraint "calendar_events_ends_after_start_check" check ("ends_at" > "starts_at");`);
    this.addSql(`alter table "event_students" add constraint "event_students_event_id_foreign" foreign key ("event_id") references "calendar_events" ("id") on delete cascade;`);
    this.addSql(`alter table "event_students" add constraint "event_students_student_id_foreign" foreign key ("student_id") references "students" ("id") on delete cascade;`);
    this.addSql(`alter table "employee_subjects" add constraint "employee_subjects_employee_id_foreign" foreign key ("employee_id") references "employees" ("id") on delete cascade;`);
    this.addSql(`alter table "employee_subjects" add constraint "employee_subjects_subject_id_foreign" foreign key ("subject_id") references "subjects" ("id") on delete cascade;`);
    this.addSql(`alter table "school_courses" add constraint "school_courses_dates_check" check ("end_date" >= "start_date");`);

    // The latest course is the greatest start date, ties by id.
    this.addSql(`create index "school_courses_latest_index" on "school_courses" ("start_date" desc, "id" desc);`);
    // Administrative listing: newest first with a stable tie-break, and accent/case-insensitive search.
    this.addSql(`create index "students_created_at_id_index" on "students" ("created_at" desc, "id" desc);`);
    this.addSql(`create extension if not exists unaccent;`);
    this.addSql(`create extension if not exists pg_trgm;`);
    // unaccent() is only STABLE (it reads a dictionary); pinning the dictionary makes an IMMUTABLE wrapper usable in an index.
    this.addSql(`create or replace function student_search_text(name text, lastname text) returns text language sql immutable parallel safe strict as $$ select lower(public.unaccent('public.unaccent'::regdictionary, name || ' ' || lastname)) $$;`);
    this.addSql(`create or replace function search_pattern(term text) returns text language sql immutable parallel safe strict as $$ select lower(public.unaccent('public.unaccent'::regdictionary, term)) $$;`);
    // Stored, so the trigram index's recheck compares text instead of calling unaccent per row (not in the entity: never written by the app).
    this.addSql(`alter table "students" add column "search_text" text generated always as (student_search_text("name", "lastname")) stored;`);
    this.addSql(`create index "students_search_text_trgm_index" on "students" using gin ("search_text" gin_trgm_ops);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "blocks" cascade;`);
    this.addSql(`drop table if exists "calendar_events" cascade;`);
    this.addSql(`drop table if exists "centers" cascade;`);
    this.addSql(`drop table if exists "employees" cascade;`);
    this.addSql(`drop table if exists "employee_subjects" cascade;`);
    this.addSql(`drop table if exists "event_students" cascade;`);
    this.addSql(`drop table if exists "guardians" cascade;`);
    this.addSql(`drop table if exists "registrations" cascade;`);
    this.addSql(`drop table if exists "school_courses" cascade;`);
    this.addSql(`drop table if exists "students" cascade;`);
    this.addSql(`drop table if exists "subjects" cascade;`);
    this.addSql(`drop function if exists student_search_text(text, text);`);
    this.addSql(`drop function if exists search_pattern(text);`);
  }

}
