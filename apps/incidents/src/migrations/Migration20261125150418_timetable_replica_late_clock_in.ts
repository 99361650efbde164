import { Migration } from '@mikro-orm/migrations';

export class Migration20261125150418_timetable_replica_late_clock_in extends Migration {

  override name = 'Migration20261125150418_timetable_replica_late_clock_in';

  override up(): void | Promise<void> {
    this.addSql(`create table "calendar_events" ("id" int not null, "subject_id" int null, "center_id" int null, "employee_id" int null, "starts_at" timestamptz null, "ends_at" timestamptz null, "deleted" boolean not null default false, "known_since" timestamptz null, "source_version" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "calendar_events_starts_at_index" on "calendar_events" ("starts_at");`);
    this.addSql(`create index "calendar_events_employee_id_starts_at_index" on "calendar_events" ("employee_id", "starts_at");`);

    this.addSql(`create table "employee_first_seen" ("employee_id" int not null, "first_seen_at" timestamptz not null, primary key ("employee_id"));`);
    // By hand: employees already in the replica count as seen at their latest event (no earlier sighting is kept).
    this.addSql(`insert into "employee_first_seen" ("employee_id", "first_seen_at") select "id", "source_version" from "employees";`);

    this.addSql(`alter table "incidents" drop constraint "incidents_kind_check";`);
    this.addSql(`alter table "incidents" add constraint "incidents_kind_check" check ("kind" in ('CLOCK_IN_WHILE_OPEN', 'CLOCK_OUT_WITHOUT_OPEN', 'RECORD_OPEN_TOO_LONG', 'ABSENCE', 'LATE_CLOCK_IN'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "calendar_events" cascade;`);
    this.addSql(`drop table if exists "employee_first_seen" cascade;`);

    this.addSql(`alter table "incidents" drop constraint "incidents_kind_check";`);
    this.addSql(`alter table "incidents" add constraint "incidents_kind_check" check ("kind" in ('CLOCK_IN_WHILE_OPEN', 'CLOCK_OUT_WITHOUT_OPEN', 'RECORD_OPEN_TOO_LONG', 'ABSENCE'));`);
  }

}
