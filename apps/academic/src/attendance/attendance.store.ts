// The SQL of attendance: the only code that knows its tables (attendance_statuses, _sheets, _marks,
// _mark_changes, _standings, _reminders) and how it reads classes, rosters and students.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AttendanceSheetResponse } from '@academy/contracts';

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
}

/** A class with its roster and its editing window at `now`, or undefined. Parameters: time zone, edit days, now. */
export async function findClass(em: EntityManager, eventId: number, window: { timeZone: string; editDays: number; now: Date }): Promise<AttendanceClass | undefined> {
  const [row] = await em.execute<AttendanceClass[]>(
    `select e.id, e.subject_id as "subjectId", e.center_id as "centerId", e.employee_id as "employeeId",
            ${isoSql('e.starts_at')} as "startsAt", ${isoSql('e.ends_at')} as "endsAt",
            floor(extract(epoch from e.ends_at - e.starts_at) / 60)::int as "classMinutes",
            ${isoSql('w.opens_at')} as "opensAt", ${isoSql('w.locks_at')} as "locksAt",
            ?::timestamptz >= w.opens_at as opened, ?::timestamptz >= w.locks_at as locked,
            array(select es.student_id from event_students es where es.event_id = e.id order by es.student_id) as roster
       from calendar_events e
       cross join lateral (select e.starts_at - interval '15 minutes' as opens_at,
                                  ((e.ends_at at time zone ?)::date + ?::int + 1)::timestamp at time zone ? as locks_at) w
      where e.id = ?`,
    [window.now, window.now, window.timeZone, window.editDays, window.timeZone, eventId],
  );
  return row;
}

export interface CurrentMark {
  studentId: number;
  status: string;
  minutesLate: number | null;
  remark: string | null;
}

export async function currentMarks(em: EntityManager, eventId: number): Promise<CurrentMark[]> {
  return em.execute<CurrentMark[]>(`select student_id as "studentId", status, minutes_late as "minutesLate", remark from attendance_marks where event_id = ?`, [eventId]);
}

export async function knownStatuses(em: EntityManager): Promise<Set<string>> {
  const rows = await em.execute<{ code: string }[]>(`select code from attendance_statuses`);
  return new Set(rows.map((row) => row.code));
}

export interface MarkChange {
  studentId: number;
  from: { status: string | null; minutesLate: number | null; remark: string | null };
  to: { status: string; minutesLate: number | null; remark: string | null };
}

/**
 * Writes the changed marks, their history and the sheet (created by the first save, its last
 * change updated by every save) in one statement.
 */
export async function writeChanges(em: EntityManager, eventId: number, changes: MarkChange[], byUserId: number, at: Date): Promise<void> {
  const rows = changes.map((change) => ({
    student_id: change.studentId,
    status: change.to.status,
    minutes_late: change.to.minutesLate,
    remark: change.to.remark,
    from_status: change.from.status,
    from_minutes_late: change.from.minutesLate,
    from_remark: change.from.remark,
  }));
  await em.execute(
    `with input as (
       select * from jsonb_to_recordset(?::jsonb) as x(student_id int, status text, minutes_late int, remark text, from_status text, from_minutes_late int, from_remark text)),
     marks as (
       insert into attendance_marks (event_id, student_id, status, minutes_late, remark, marked_by_user_id, marked_at)
       select ?, student_id, status, minutes_late, remark, ?, ?::timestamptz from input
       on conflict (event_id, student_id) do update
         set status = excluded.status, minutes_late = excluded.minutes_late, remark = excluded.remark,
             marked_by_user_id = excluded.marked_by_user_id, marked_at = excluded.marked_at
       returning 1),
     history as (
       insert into attendance_mark_changes (event_id, student_id, from_status, to_status, from_minutes_late, to_minutes_late, from_remark, to_remark, changed_by_user_id, changed_at)
       select ?, student_id, from_status, status, from_minutes_late, minutes_late, from_remark, remark, ?, ?::timestamptz from input
       returning 1),
     sheet as (
       insert into attendance_sheets (event_id, taken_by_user_id, taken_at, updated_by_user_id, updated_at)
       values (?, ?, ?::timestamptz, ?, ?::timestamptz)
       on conflict (event_id) do update set updated_by_user_id = excluded.updated_by_user_id, updated_at = excluded.updated_at
       returning 1)
     select (select count(*) from marks)::int as marks, (select count(*) from history)::int as history, (select count(*) from sheet)::int as sheet`,
    [JSON.stringify(rows), eventId, byUserId, at, eventId, byUserId, at, eventId, byUserId, at, byUserId, at],
  );
}

/** The sheet as the routes answer it: the roster (and anyone marked who has left it since), with marks. */
export async function readSheet(em: EntityManager, event: Pick<AttendanceClass, 'id' | 'subjectId' | 'centerId' | 'employeeId' | 'startsAt' | 'endsAt'>, changed: number): Promise<AttendanceSheetResponse> {
  const [sheet] = await em.execute<{ takenBy: number; takenAt: string; updatedBy: number; updatedAt: string }[]>(
    `select taken_by_user_id as "takenBy", ${isoSql('taken_at')} as "takenAt", updated_by_user_id as "updatedBy", ${isoSql('updated_at')} as "updatedAt"
       from attendance_sheets where event_id = ?`,
    [event.id],
  );
  const students = await em.execute<AttendanceSheetResponse['students']>(
    `with ids as (select student_id from event_students where event_id = ? union select student_id from attendance_marks where event_id = ?)
     select ids.student_id as "studentId", trim(s.name || ' ' || s.lastname) as name, m.status, m.minutes_late as "minutesLate", m.remark,
            ${isoSql('m.marked_at')} as "markedAt", m.marked_by_user_id as "markedByUserId"
       from ids
       join students s on s.id = ids.student_id
       left join attendance_marks m on m.event_id = ? and m.student_id = ids.student_id
      order by s.lastname, s.name, s.id`,
    [event.id, event.id, event.id],
  );
  return {
    eventId: event.id,
    subjectId: event.subjectId,
    centerId: event.centerId,
    employeeId: event.employeeId,
    startsAt: event.startsAt,
    endsAt: event.endsAt,
    taken: sheet ? { byUserId: sheet.takenBy, at: sheet.takenAt } : null,
    updated: sheet ? { byUserId: sheet.updatedBy, at: sheet.updatedAt } : null,
    students,
    unmarked: students.filter((student) => student.status === null).map((student) => student.studentId),
    changed,
  };
}
