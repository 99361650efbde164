import { Migration } from '@mikro-orm/migrations';

/**
 * Versions of what the attendance report (JSON) shows, for its cache (see
 * `attendance/attendance-report-cache.ts`): a row per subject (`subject:<id>`) and one `global`.
 * Triggers bump them in the transaction of the change, whoever writes:
 * - a subject's: marks inserted, updated or deleted (also by a cascade: a deleted student, a renamed
 *   status), one of its classes with marks moved (subject, center, start) or deleted (before its
 *   marks cascade): the subjects of both sides;
 * - `global`: a student's name or lastname changed, a student deleted, a subject renamed or deleted,
 *   any change to the statuses (weights, codes).
 * A reader reads the versions before the report's data (a later snapshot), so an answer never holds
 * data older than its key, and a commit that changed what it shows has moved later readers to a new
 * key. Versions only grow and rows are never deleted, so a sum over subjects grows with every bump.
 * `epoch` (of the global row) tells databases apart, so their versions never share cache entries.
 * Subject rows are locked in the order of their scope within a statement; saves of one subject are
 * already serialized by their advisory lock.
 */
export class Migration20261125200000_attendance_report_versions extends Migration {
  override name = 'Migration20261125200000_attendance_report_versions';

  override up(): void | Promise<void> {
    this.addSql(`create table "attendance_report_versions" ("scope" text primary key, "epoch" uuid not null default gen_random_uuid(), "version" bigint not null default 1);`);
    this.addSql(`insert into "attendance_report_versions" ("scope") values ('global');`);
    this.addSql(`create function bump_attendance_report_versions(scopes text[]) returns void language sql as $$
      insert into attendance_report_versions as v (scope)
      select distinct s from unnest(scopes) s where s is not null order by s
      on conflict (scope) do update set version = v.version + 1
    $$;`);

    const subjectsOf = (marks: string) => `array(select 'subject:' || e.subject_id from calendar_events e where e.id in (${marks}))`;
    this.addSql(`create function attendance_marks_report_version() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then perform bump_attendance_report_versions(${subjectsOf('select event_id from new_marks')});
      elsif tg_op = 'UPDATE' then perform bump_attendance_report_versions(${subjectsOf('select event_id from old_marks union select event_id from new_marks')});
      else perform bump_attendance_report_versions(${subjectsOf('select event_id from old_marks')});
      end if;
      return null;
    end $$;`);
    this.addSql(`create trigger "attendance_marks_report_version_insert" after insert on "attendance_marks" referencing new table as new_marks for each statement execute function attendance_marks_report_version();`);
    this.addSql(`create trigger "attendance_marks_report_version_update" after update on "attendance_marks" referencing old table as old_marks new table as new_marks for each statement execute function attendance_marks_report_version();`);
    this.addSql(`create trigger "attendance_marks_report_version_delete" after delete on "attendance_marks" referencing old table as old_marks for each statement execute function attendance_marks_report_version();`);

    // A deleted class's marks cascade after the class is gone (the marks' trigger finds no subject): bumped here, before.
    this.addSql(`create function calendar_events_report_version() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        if exists (select 1 from attendance_marks m where m.event_id = old.id) then
          perform bump_attendance_report_versions(array['subject:' || old.subject_id]);
        end if;
        return old;
      end if;
      if (old.subject_id, old.center_id, old.starts_at) is distinct from (new.subject_id, new.center_id, new.starts_at)
         and exists (select 1 from attendance_marks m where m.event_id = new.id) then
        perform bump_attendance_report_versions(array['subject:' || old.subject_id, 'subject:' || new.subject_id]);
      end if;
      return new;
    end $$;`);
    this.addSql(`create trigger "calendar_events_report_version_delete" before delete on "calendar_events" for each row execute function calendar_events_report_version();`);
    this.addSql(`create trigger "calendar_events_report_version_update" after update of "subject_id", "center_id", "starts_at" on "calendar_events" for each row execute function calendar_events_report_version();`);

    this.addSql(`create function bump_attendance_report_global() returns trigger language plpgsql as $$
    begin
      perform bump_attendance_report_versions(array['global']);
      return null;
    end $$;`);
    this.addSql(`create trigger "students_report_version" after update of "name", "lastname" or delete or truncate on "students" for each statement execute function bump_attendance_report_global();`);
    this.addSql(`create trigger "subjects_report_version" after update of "name" or delete or truncate on "subjects" for each statement execute function bump_attendance_report_global();`);
    this.addSql(`create trigger "attendance_statuses_report_version" after insert or update or delete or truncate on "attendance_statuses" for each statement execute function bump_attendance_report_global();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "students_report_version" on "students";`);
    this.addSql(`drop trigger if exists "subjects_report_version" on "subjects";`);
    this.addSql(`drop trigger if exists "attendance_statuses_report_version" on "attendance_statuses";`);
    this.addSql(`drop function if exists bump_attendance_report_global();`);
    this.addSql(`drop trigger if exists "calendar_events_report_version_delete" on "calendar_events";`);
    this.addSql(`drop trigger if exists "calendar_events_report_version_update" on "calendar_events";`);
    this.addSql(`drop function if exists calendar_events_report_version();`);
    this.addSql(`drop trigger if exists "attendance_marks_report_version_insert" on "attendance_marks";`);
    this.addSql(`drop trigger if exists "attendance_marks_report_version_update" on "attendance_marks";`);
    this.addSql(`drop trigger if exists "attendance_marks_report_version_delete" on "attendance_marks";`);
    this.addSql(`drop function if exists attendance_marks_report_version();`);
    this.addSql(`drop function if exists bump_attendance_report_versions(text[]);`);
    this.addSql(`drop table if exists "attendance_report_versions";`);
  }
}
