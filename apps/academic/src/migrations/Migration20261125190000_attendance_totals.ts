import { Migration } from '@mikro-orm/migrations';

// Declared by hand (written by triggers only, no entity): the marks counted per subject, center,
// student, UTC month of the class's start and status, so summaries and the report read a few rows per
// student for the whole months of their range and only the edge days from attendance_marks.
// Triggers keep it in the transaction of every change, whoever writes: saves (insert, update), a
// deleted student (cascade), a renamed status (cascade), a class moved to another subject, center or
// month (calendar_events update) or deleted (before its marks cascade). Concurrent writers add
// deltas with ON CONFLICT DO UPDATE, so no count is lost. The months are UTC's, not the academy's:
// the table knows no zone; a range in the academy's days covers whole UTC months plus edges.
// Also: marks by student with their class and status (index-only reads of a student's marks).
export class Migration20261125190000_attendance_totals extends Migration {

  override name = 'Migration20261125190000_attendance_totals';

  override up(): void | Promise<void> {
    this.addSql(`create table "attendance_totals" ("subject_id" int not null, "student_id" int not null, "center_id" int not null, "month" date not null, "status" varchar(8) not null, "sessions" int not null, constraint "attendance_totals_pkey" primary key ("subject_id", "student_id", "center_id", "month", "status"));`);
    this.addSql(`create index "attendance_totals_student_id_index" on "attendance_totals" ("student_id");`);
    this.addSql(`drop index "attendance_marks_student_id_index";`);
    this.addSql(`create index "attendance_marks_student_id_index" on "attendance_marks" ("student_id") include ("event_id", "status");`);

    // Each statement's marks, before (-1) and after (+1), added under their class's subject, center and month.
    const addDelta = (delta: string) => `
        insert into attendance_totals (subject_id, student_id, center_id, month, status, sessions)
        select e.subject_id, d.student_id, e.center_id, date_trunc('month', e.starts_at at time zone 'UTC')::date, d.status, sum(d.n)::int
          from (${delta}) d join calendar_events e on e.id = d.event_id
         group by 1, 2, 3, 4, 5 having sum(d.n) <> 0 order by 1, 2, 3, 4, 5
        on conflict (subject_id, student_id, center_id, month, status) do update set sessions = attendance_totals.sessions + excluded.sessions;`;
    this.addSql(`create function attendance_marks_totals() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then${addDelta('select event_id, student_id, status, 1 as n from new_marks')}
      elsif tg_op = 'UPDATE' then${addDelta('select event_id, student_id, status, -1 as n from old_marks union all select event_id, student_id, status, 1 from new_marks')}
      else${addDelta('select event_id, student_id, status, -1 as n from old_marks')}
      end if;
      return null;
    end $$;`);
    this.addSql(`create trigger "attendance_marks_totals_insert" after insert on "attendance_marks" referencing new table as new_marks for each statement execute function attendance_marks_totals();`);
    this.addSql(`create trigger "attendance_marks_totals_update" after update on "attendance_marks" referencing old table as old_marks new table as new_marks for each statement execute function attendance_marks_totals();`);
    this.addSql(`create trigger "attendance_marks_totals_delete" after delete on "attendance_marks" referencing old table as old_marks for each statement execute function attendance_marks_totals();`);

    // A class that moves takes its marks along; a deleted class's marks leave before the cascade
    // (which then finds no class for them and adds nothing).
    this.addSql(`create function calendar_events_attendance_totals() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' or (old.subject_id, old.center_id, date_trunc('month', old.starts_at at time zone 'UTC')) is distinct from (new.subject_id, new.center_id, date_trunc('month', new.starts_at at time zone 'UTC')) then
        insert into attendance_totals (subject_id, student_id, center_id, month, status, sessions)
        select old.subject_id, m.student_id, old.center_id, date_trunc('month', old.starts_at at time zone 'UTC')::date, m.status, -count(*)::int
          from attendance_marks m where m.event_id = old.id group by m.student_id, m.status order by m.student_id, m.status
        on conflict (subject_id, student_id, center_id, month, status) do update set sessions = attendance_totals.sessions + excluded.sessions;
      end if;
      if tg_op = 'DELETE' then return old; end if;
      if (old.subject_id, old.center_id, date_trunc('month', old.starts_at at time zone 'UTC')) is distinct from (new.subject_id, new.center_id, date_trunc('month', new.starts_at at time zone 'UTC')) then
        insert into attendance_totals (subject_id, student_id, center_id, month, status, sessions)
        select new.subject_id, m.student_id, new.center_id, date_trunc('month', new.starts_at at time zone 'UTC')::date, m.status, count(*)::int
          from attendance_marks m where m.event_id = new.id group by m.student_id, m.status order by m.student_id, m.status
        on conflict (subject_id, student_id, center_id, month, status) do update set sessions = attendance_totals.sessions + excluded.sessions;
      end if;
      return new;
    end $$;`);
    this.addSql(`create trigger "calendar_events_attendance_totals_delete" before delete on "calendar_events" for each row execute function calendar_events_attendance_totals();`);
    this.addSql(`create trigger "calendar_events_attendance_totals_update" after update of "subject_id", "center_id", "starts_at" on "calendar_events" for each row execute function calendar_events_attendance_totals();`);

    this.addSql(`insert into attendance_totals (subject_id, student_id, center_id, month, status, sessions)
      select e.subject_id, m.student_id, e.center_id, date_trunc('month', e.starts_at at time zone 'UTC')::date, m.status, count(*)::int
        from attendance_marks m join calendar_events e on e.id = m.event_id group by 1, 2, 3, 4, 5;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "calendar_events_attendance_totals_delete" on "calendar_events";`);
    this.addSql(`drop trigger if exists "calendar_events_attendance_totals_update" on "calendar_events";`);
    this.addSql(`drop function if exists calendar_events_attendance_totals();`);
    this.addSql(`drop table if exists "attendance_totals";`);
    this.addSql(`drop trigger if exists "attendance_marks_totals_insert" on "attendance_marks";`);
    this.addSql(`drop trigger if exists "attendance_marks_totals_update" on "attendance_marks";`);
    this.addSql(`drop trigger if exists "attendance_marks_totals_delete" on "attendance_marks";`);
    this.addSql(`drop function if exists attendance_marks_totals();`);
    this.addSql(`drop index "attendance_marks_student_id_index";`);
    this.addSql(`create index "attendance_marks_student_id_index" on "attendance_marks" ("student_id");`);
  }

}
