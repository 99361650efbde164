// The SQL of attendance: the only code that knows its tables (attendance_statuses, _sheets, _marks,
// _mark_changes, _standings, _reminders) and how it reads classes, rosters and students.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AttendanceSheetResponse } from '@academy/contracts';
import { pgArray } from '@academy/db';

/** SQL: a timestamptz column as an ISO instant in UTC (`…Z`), whatever the driver's parsers. */
export const isoSql = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export interface AttendanceClass {
  id: number;
  subjectId: number;
  centerId: number;
  employeeId: number | null;
  startsAt: string;
  endsAt: string;
  classMinutes: number;
  /** From when a teacher may take it: 15 minutes before the start. */
  opensAt: string;
  /** When it locks for teachers: the end of the academy day `ATTENDANCE_EDIT_DAYS` after the class's last day. */
  locksAt: string;
  /** Now is at or after `opensAt` / `locksAt` (PostgreSQL compares, one clock for both). */
  opened: boolean;
  locked: boolean;
  roster: number[];
  /** The codes of the academy's statuses. */
  statuses: string[];
}

/**
 * A class with its roster, its editing window at `now` and the known status codes, or undefined.
 * With `lockSubject` (inside a transaction) it also takes the subject's attendance lock, on which
 * saves of one subject's classes wait for each other (no lost mark, no warning seen twice): the
 * save's later statements see every save of the subject committed before.
 */
export async function findClass(
  em: EntityManager,
  eventId: number,
  window: { timeZone: string; editDays: number; now: Date },
  options: { lockSubject?: boolean } = {},
): Promise<AttendanceClass | undefined> {
  const [row] = await em.execute<AttendanceClass[]>(
    `select e.id, e.subject_id as "subjectId", e.center_id as "centerId", e.employee_id as "employeeId",
            ${isoSql('e.starts_at')} as "startsAt", ${isoSql('e.ends_at')} as "endsAt",
            floor(extract(epoch from e.ends_at - e.starts_at) / 60)::int as "classMinutes",
            ${isoSql('w.opens_at')} as "opensAt", ${isoSql('w.locks_at')} as "locksAt",
            ?::timestamptz >= w.opens_at as opened, ?::timestamptz >= w.locks_at as locked,
            array(select es.student_id from event_students es where es.event_id = e.id order by es.student_id) as roster,
            array(select st.code from attendance_statuses st order by st.position, st.code) as statuses
       from calendar_events e
       ${options.lockSubject ? `cross join lateral (select pg_advisory_xact_lock(hashtext('academic.attendance'), e.subject_id)) subject_lock` : ''}
       cross join lateral (select e.starts_at - interval '15 minutes' as opens_at,
                                  ((e.ends_at at time zone ?)::date + ?::int + 1)::timestamp at time zone ? as locks_at) w
      where e.id = ?`,
    [window.now, window.now, window.timeZone, window.editDays, window.timeZone, eventId],
  );
  return row;
}

/** A mark as a save asks for it: a mark without `minutesLate` or `remark` has none. */
export interface WantedMark {
  studentId: number;
  status: string;
  minutesLate: number | null;
  remark: null | string;
}

export interface MarkChange {
  studentId: number;
  from: { status: string | null; minutesLate: number | null; remark: string | null };
  to: { status: string; minutesLate: number | null; remark: string | null };
}

/**
 * One statement: compares the wanted marks with the stored ones, writes those that change (marks,
 * their history, the sheet: created by the first save, its last change updated by every save) and
 * answers the changes. `rest` marks those of its students who have no mark and are not in `marks`
 * (never overwriting). A save that changes nothing writes nothing. Callers hold the subject's lock.
 */
export async function saveMarks(
  tx: EntityManager,
  eventId: number,
  save: { marks: WantedMark[]; rest?: { status: string; studentIds: number[] }; byUserId: number; at: Date },
): Promise<MarkChange[]> {
  const { marks, rest } = save;
  const rows = await tx.execute<{ studentId: number; fromStatus: string | null; fromMinutesLate: number | null; fromRemark: string | null; status: string; minutesLate: number | null; remark: string | null }[]>(
    `with wanted as (
       select w.student_id, w.status, w.minutes_late, w.remark, w.position
         from unnest(?::int[], ?::text[], ?::int[], ?::text[]) with ordinality as w(student_id, status, minutes_late, remark, position)
       union all
       select r.student_id, ?::text, null, null, ?::int + r.position
         from unnest(?::int[]) with ordinality as r(student_id, position)
        where r.student_id <> all(?::int[])
          and not exists (select 1 from attendance_marks m where m.event_id = ? and m.student_id = r.student_id)),
     changed as (
       select w.*, m.status as from_status, m.minutes_late as from_minutes_late, m.remark as from_remark
         from wanted w
         left join attendance_marks m on m.event_id = ? and m.student_id = w.student_id
        where m.student_id is null or (m.status, m.minutes_late, m.remark) is distinct from (w.status, w.minutes_late, w.remark)),
     marks as (
       insert into attendance_marks (event_id, student_id, status, minutes_late, remark, marked_by_user_id, marked_at)
       select ?, student_id, status, minutes_late, remark, ?, ?::timestamptz from changed
       on conflict (event_id, student_id) do update
         set status = excluded.status, minutes_late = excluded.minutes_late, remark = excluded.remark,
             marked_by_user_id = excluded.marked_by_user_id, marked_at = excluded.marked_at),
     history as (
       insert into attendance_mark_changes (event_id, student_id, from_status, to_status, from_minutes_late, to_minutes_late, from_remark, to_remark, changed_by_user_id, changed_at)
       select ?, student_id, from_status, status, from_minutes_late, minutes_late, from_remark, remark, ?, ?::timestamptz from changed order by position),
     sheet as (
       insert into attendance_sheets (event_id, taken_by_user_id, taken_at, updated_by_user_id, updated_at)
       select ?, ?, ?::timestamptz, ?, ?::timestamptz where exists (select 1 from changed)
       on conflict (event_id) do update set updated_by_user_id = excluded.updated_by_user_id, updated_at = excluded.updated_at)
     select student_id as "studentId", from_status as "fromStatus", from_minutes_late as "fromMinutesLate", from_remark as "fromRemark",
            status, minutes_late as "minutesLate", remark
       from changed order by position`,
    [
      pgArray(marks.map((mark) => mark.studentId)),
      pgArray(marks.map((mark) => mark.status)),
      pgArray(marks.map((mark) => mark.minutesLate)),
      pgArray(marks.map((mark) => mark.remark)),
      rest?.status ?? null,
      marks.length,
      pgArray(rest?.studentIds ?? []),
      pgArray(marks.map((mark) => mark.studentId)),
      eventId,
      eventId,
      eventId,
      save.byUserId,
      save.at,
      eventId,
      save.byUserId,
      save.at,
      eventId,
      save.byUserId,
      save.at,
      save.byUserId,
      save.at,
    ],
  );
  return rows.map((row) => ({
    studentId: row.studentId,
    from: { status: row.fromStatus, minutesLate: row.fromMinutesLate, remark: row.fromRemark },
    to: { status: row.status, minutesLate: row.minutesLate, remark: row.remark },
  }));
}

/** The sheet as the routes answer it, in one query: the roster (and anyone marked who has left it since), with marks. */
export async function readSheet(em: EntityManager, event: Pick<AttendanceClass, 'id' | 'subjectId' | 'centerId' | 'employeeId' | 'startsAt' | 'endsAt'>, changed: number): Promise<AttendanceSheetResponse> {
  type Taken = { byUserId: number; at: string } | null;
  const [row] = await em.execute<{ taken: Taken; updated: Taken; students: AttendanceSheetResponse['students'] }[]>(
    `with ids as (select student_id from event_students where event_id = ? union select student_id from attendance_marks where event_id = ?)
     select (select json_build_object('byUserId', taken_by_user_id, 'at', ${isoSql('taken_at')}) from attendance_sheets where event_id = ?) as taken,
            (select json_build_object('byUserId', updated_by_user_id, 'at', ${isoSql('updated_at')}) from attendance_sheets where event_id = ?) as updated,
            coalesce((select json_agg(x order by x.lastname, x.firstname, x."studentId")
                        from (select ids.student_id as "studentId", trim(s.name || ' ' || s.lastname) as name, m.status, m.minutes_late as "minutesLate", m.remark,
                                     ${isoSql('m.marked_at')} as "markedAt", m.marked_by_user_id as "markedByUserId", s.lastname, s.name as firstname
                                from ids
                                join students s on s.id = ids.student_id
                                left join attendance_marks m on m.event_id = ? and m.student_id = ids.student_id) x), '[]') as students`,
    [event.id, event.id, event.id, event.id, event.id],
  );
  const students = row!.students.map(({ studentId, name, status, minutesLate, remark, markedAt, markedByUserId }) => ({ studentId, name, status, minutesLate, remark, markedAt, markedByUserId }));
  return {
    eventId: event.id,
    subjectId: event.subjectId,
    centerId: event.centerId,
    employeeId: event.employeeId,
    startsAt: event.startsAt,
    endsAt: event.endsAt,
    taken: row!.taken,
    updated: row!.updated,
    students,
    unmarked: students.filter((student) => student.status === null).map((student) => student.studentId),
    changed,
  };
}
