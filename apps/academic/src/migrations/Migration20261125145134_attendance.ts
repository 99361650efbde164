import { Migration } from '@mikro-orm/migrations';

export class Migration20261125145134_attendance extends Migration {

  override name = 'Migration20261125145134_attendance';

  override up(): void | Promise<void> {
    this.addSql(`create table "attendance_marks" ("event_id" int not null, "student_id" int not null, "status" varchar(8) not null, "minutes_late" int null, "remark" text null, "marked_by_user_id" int not null, "marked_at" timestamptz not null, primary key ("event_id", "student_id"));`);
    this.addSql(`create index "attendance_marks_student_id_index" on "attendance_marks" ("student_id");`);

    this.addSql(`create table "attendance_mark_changes" ("id" bigserial primary key, "event_id" int not null, "student_id" int not null, "from_status" varchar(8) null, "to_status" varchar(8) not null, "from_minutes_late" int null, "to_minutes_late" int null, "from_remark" text null, "to_remark" text null, "changed_by_user_id" int not null, "changed_at" timestamptz not null);`);
    this.addSql(`create index "attendance_mark_changes_event_id_student_id_index" on "attendance_mark_changes" ("event_id", "student_id");`);

    this.addSql(`create table "attendance_reminders" ("employee_id" int not null, "day" date not null, "missing_count" int not null, "sent_at" timestamptz not null, primary key ("employee_id", "day"));`);

    this.addSql(`create table "attendance_sheets" ("event_id" int not null, "taken_by_user_id" int not null, "taken_at" timestamptz not null, "updated_by_user_id" int not null, "updated_at" timestamptz not null, primary key ("event_id"));`);

    this.addSql(`create table "attendance_standings" ("student_id" int not null, "subject_id" int not null, "below" boolean not null, "percentage" numeric(5,2) not null, "changed_at" timestamptz not null, primary key ("student_id", "subject_id"));`);

    this.addSql(`create table "attendance_statuses" ("code" varchar(8) not null, "name" varchar(60) not null, "weight" numeric(4,3) null, "position" int not null, "updated_at" timestamptz not null, primary key ("code"));`);

    // By hand: foreign keys (a deleted class or student takes its marks along; a status in use cannot
    // be removed), the checks, and the academy's first statuses (Canvas Roll Call counts late as 80%).
    this.addSql(`alter table "attendance_marks" add constraint "attendance_marks_event_id_foreign" foreign key ("event_id") references "calendar_events" ("id") on delete cascade;`);
    this.addSql(`alter table "attendance_marks" add constraint "attendance_marks_student_id_foreign" foreign key ("student_id") references "students" ("id") on delete cascade;`);
    this.addSql(`alter table "attendance_marks" add constraint "attendance_marks_status_foreign" foreign key ("status") references "attendance_statuses" ("code") on update cascade on delete restrict;`);
    this.addSql(`alter table "attendance_marks" add constraint "attendance_marks_minutes_late_check" check ("minutes_late" >= 0);`);
    this.addSql(`alter table "attendance_sheets" add constraint "attendance_sheets_event_id_foreign" foreign key ("event_id") references "calendar_events" ("id") on delete cascade;`);
    this.addSql(`alter table "attendance_mark_changes" add constraint "attendance_mark_changes_event_id_foreign" foreign key ("event_id") references "calendar_events" ("id") on delete cascade;`);
    this.addSql(`alter table "attendance_standings" add constraint "attendance_standings_student_id_foreign" foreign key ("student_id") references "students" ("id") on delete cascade;`);
    this.addSql(`alter table "attendance_standings" add constraint "attendance_standings_subject_id_foreign" foreign key ("subject_id") references "subjects" ("id") on delete cascade;`);
    this.addSql(`alter table "attendance_reminders" add constraint "attendance_reminders_employee_id_foreign" foreign key ("employee_id") references "employees" ("id") on delete cascade;`);
    this.addSql(`alter table "attendance_statuses" add constraint "attendance_statuses_weight_check" check ("weight" between 0 and 1);`);
    this.addSql(`insert into "attendance_statuses" ("code", "name", "weight", "position", "updated_at") values ('P', 'Present', 1, 0, now()), ('L', 'Late', 0.8, 1, now()), ('E', 'Excused', null, 2, now()), ('A', 'Absent', 0, 3, now());`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "attendance_marks" cascade;`);
    this.addSql(`drop table if exists "attendance_mark_changes" cascade;`);
    this.addSql(`drop table if exists "attendance_reminders" cascade;`);
    this.addSql(`drop table if exists "attendance_sheets" cascade;`);
    this.addSql(`drop table if exists "attendance_standings" cascade;`);
    this.addSql(`drop table if exists "attendance_statuses" cascade;`);
  }

}
