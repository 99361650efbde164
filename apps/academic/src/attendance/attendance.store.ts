// The SQL of attendance: the only code that knows its tables (attendance_statuses, _sheets, _marks,
// _mark_changes, _standings, _reminders, _totals, _report_versions) and how it reads classes,
// rosters, students and the people a warning or a reminder goes to.
import type { Readable } from 'node:stream';
import type { EntityManager, PostgreSqlConnection } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';
import QueryStream from 'pg-query-stream';
import type { AttendanceSheetResponse, AttendanceStatusItem, AttendanceStatusesBody, EventData, Locale } from '@academy/contracts';
import { numberedPlaceholders, pgArray, Sql } from '@academy/db';
import type { ReportVersions } from '../shared/attendance-report-cache.ts';
import { LATEST_SCHOOL_COURSE_SQL } from '../shared/latest-school-course.store.ts';
import type { DayRange } from './academy-days.ts';

/** SQL: the instant a day `?` starts at, in the zone `?`. */
const DAY_START_SQL = `(?::date)::timestamp at time zone ?`;
/** SQL: the instant after a day `?` ends, in the zone `?`. */
const DAY_END_SQL = `(?::date + 1)::timestamp at time zone ?`;

/** SQL: a timestamptz column as an ISO instant in UTC (`…Z`), whatever the driver's parsers. */
const isoSql = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

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
export async function readSheet(em: EntityManager, event: Pick<AttendanceClass, 'id' | 'subjectId' | 'centerId' | 'employeeId' | 'startsAt' | 'endsAt'>, changed: number): Promise<Omit<AttendanceSheetResponse, 'window'>> {
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

// ---------------------------------------------------------------- statuses

export async function selectStatuses(em: EntityManager): Promise<AttendanceStatusItem[]> {
  return em.execute<AttendanceStatusItem[]>(`select code, name, weight::float8 as weight from attendance_statuses order by position, code`);
}

/** Locks the set of statuses for the transaction (a replace waits for another, saves read on). */
export async function lockStatuses(tx: EntityManager): Promise<void> {
  await tx.execute(`lock table attendance_statuses in share row exclusive mode`);
}

/** The codes not in `kept` that marks use, in order. */
export async function statusesInUseExcept(tx: EntityManager, kept: string[]): Promise<string[]> {
  const used = await tx.execute<{ code: string }[]>(
    `select s.code from attendance_statuses s where not (s.code = any(?::text[])) and exists (select 1 from attendance_marks m where m.status = s.code) order by s.code`,
    [pgArray(kept)],
  );
  return used.map((row) => row.code);
}

/** The given statuses upserted in their order, every other one removed. */
export async function writeStatuses(tx: EntityManager, statuses: AttendanceStatusesBody['statuses']): Promise<void> {
  await tx.execute(`delete from attendance_statuses where not (code = any(?::text[]))`, [pgArray(statuses.map((status) => status.code))]);
  await tx.execute(
    `insert into attendance_statuses (code, name, weight, position, updated_at)
     select x.code, x.name, x.weight, x.position, now() from jsonb_to_recordset(?::jsonb) as x(code text, name text, weight numeric, position int)
     on conflict (code) do update set name = excluded.name, weight = excluded.weight, position = excluded.position, updated_at = now()`,
    [JSON.stringify(statuses.map((status, position) => ({ ...status, position })))],
  );
}

// ---------------------------------------------------------------- history

export interface MarkChangeRow {
  studentId: number;
  fromStatus: string | null;
  fromMinutesLate: number | null;
  fromRemark: string | null;
  toStatus: string;
  toMinutesLate: number | null;
  toRemark: string | null;
  byUserId: number;
  at: string;
}

/** Every change of a class's marks, oldest first. */
export async function selectMarkChanges(em: EntityManager, eventId: number): Promise<MarkChangeRow[]> {
  return em.execute<MarkChangeRow[]>(
    `select student_id as "studentId", from_status as "fromStatus", from_minutes_late as "fromMinutesLate", from_remark as "fromRemark",
            to_status as "toStatus", to_minutes_late as "toMinutesLate", to_remark as "toRemark", changed_by_user_id as "byUserId", ${isoSql('changed_at')} as at
       from attendance_mark_changes where event_id = ? order by id`,
    [eventId],
  );
}

// ---------------------------------------------------------------- warnings

/**
 * One statement: the weighted attendance per student in the subject (sessions of the current school
 * course, from its first day in the academy's zone; excused ones not counted), written to the
 * standings, answered with whether each was below before.
 * Parameters: subject, students (int array), zone, min sessions, threshold, subject, at.
 */
const STANDINGS_SQL = `
  with now_standing as (
    select m.student_id,
           count(*) filter (where st.weight is not null)::int as counted,
           coalesce(round(100 * sum(st.weight) / nullif(count(*) filter (where st.weight is not null), 0), 2), 0)::float8 as percentage
      from attendance_marks m
      join calendar_events e on e.id = m.event_id
      join attendance_statuses st on st.code = m.status
     where e.subject_id = ? and m.student_id = any(?::int[])
       and e.starts_at >= coalesce((select c.start_date::timestamp at time zone ? from school_courses c where c.id = ${LATEST_SCHOOL_COURSE_SQL}), '-infinity')
     group by m.student_id),
  judged as (select n.*, n.counted >= ? and n.percentage < ? as below from now_standing n),
  before as (select student_id, below from attendance_standings where subject_id = ? and student_id in (select student_id from judged)),
  written as (
    insert into attendance_standings (student_id, subject_id, below, percentage, changed_at)
    select j.student_id, ?, j.below, j.percentage, ?::timestamptz from judged j
    on conflict (student_id, subject_id) do update set below = excluded.below, percentage = excluded.percentage,
      changed_at = case when attendance_standings.below = excluded.below then attendance_standings.changed_at else excluded.changed_at end)
  select j.student_id as "studentId", j.counted, j.percentage, j.below, coalesce(b.below, false) as "wasBelow"
    from judged j left join before b using (student_id)`;

export interface Standing {
  studentId: number;
  counted: number;
  percentage: number;
  below: boolean;
  wasBelow: boolean;
}

/** Recomputes and writes the standings of `studentIds` in the subject; answers each one's, with whether it was below before. */
export async function writeStandings(
  tx: EntityManager,
  change: { subjectId: number; studentIds: number[]; at: Date },
  settings: { timeZone: string; thresholdPercent: number; minSessions: number },
): Promise<Standing[]> {
  return tx.execute<Standing[]>(STANDINGS_SQL, [
    change.subjectId,
    pgArray(change.studentIds),
    settings.timeZone,
    settings.minSessions,
    settings.thresholdPercent,
    change.subjectId,
    change.subjectId,
    change.at,
  ]);
}

export interface WarnedStudent {
  studentId: number;
  studentName: string;
  subjectName: string;
  guardianName: string | null;
  guardianEmail: string | null;
}

/**
 * The students' names, the subject's, and each student's active guardian; never an erased student's
 * (issue 35: their kept marks count in their standing, but no warning names them, to the admins or anyone).
 */
export async function selectWarnedStudents(tx: EntityManager, subjectId: number, studentIds: number[]): Promise<WarnedStudent[]> {
  return tx.execute<WarnedStudent[]>(
    `select s.id as "studentId", trim(s.name || ' ' || s.lastname) as "studentName", sub.name as "subjectName",
            trim(g.name || ' ' || g.lastname) as "guardianName", g.email as "guardianEmail"
       from students s
       cross join subjects sub
       left join guardians g on g.id = s.guardian_id and g.active
      where sub.id = ? and s.id = any(?::int[]) and s.erased_at is null`,
    [subjectId, pgArray(studentIds)],
  );
}

/** The active admins, their name (or e-mail), e-mail and locale. */
export async function selectActiveAdmins(tx: EntityManager): Promise<{ name: string; email: string; locale: Locale | null }[]> {
  return tx.execute(
    `select coalesce(nullif(trim(e.name || ' ' || e.lastname), ''), u.email) as name, u.email, u.locale
       from users u left join employees e on e.id = u.employee_id
      where u.role = 'admin' and u.active order by u.id`,
  );
}

// ---------------------------------------------------------------- summaries and the report

/**
 * SQL of the summaries: per student and subject, over the marks of classes starting within the
 * range (days of the academy), the sessions, the counted ones (not excused), the counts by status
 * and the weighted percentage. `filters` and `outer` see the rows as `x` (student_id, subject_id,
 * center_id, status, n). With `totals`, the whole UTC months inside the range are read from
 * attendance_totals (a few rows per student, kept by triggers in every change's transaction) and
 * only the days before the first and after the last whole month from the marks (the report); with
 * `one student`, all from the marks (a student's year is a few hundred, read from a covering
 * index) and without the students' names. The counts by status come first and the weights are
 * joined to those (a few per student), not to every mark.
 * Parameters: from, zone, to, zone, those of `filters`, those of `outer`.
 */
export const summarySql = (filters: string, outer: string, source: 'one student' | 'totals') => {
  // One student's summary has no use for the names: no join to the students.
  const named = source === 'totals';
  return `
  with ${source !== 'totals' ? '' : `instants as (select ${DAY_START_SQL} as from_at, ${DAY_END_SQL} as to_at),
  bounds as (
    select i.from_at, i.to_at, m.months_from::date as months_from, m.months_to::date as months_to,
           m.months_from at time zone 'UTC' as months_from_at, m.months_to at time zone 'UTC' as months_to_at
      from instants i
      cross join lateral (select date_trunc('month', (i.from_at at time zone 'UTC') - interval '1 microsecond') + interval '1 month' as months_from,
                                 date_trunc('month', i.to_at at time zone 'UTC') as months_to) m),`}
  x as (
    select m.student_id, e.subject_id, e.center_id, m.status, ${source !== 'totals' ? '1' : 'count(*)::int'} as n
      from calendar_events e
      join attendance_marks m on m.event_id = e.id
     where ${
       source !== 'totals'
         ? `e.starts_at >= ${DAY_START_SQL} and e.starts_at < ${DAY_END_SQL}`
         : `e.starts_at >= (select from_at from bounds) and e.starts_at < (select to_at from bounds)
       and not (e.starts_at >= (select months_from_at from bounds) and e.starts_at < (select months_to_at from bounds))
     group by m.student_id, e.subject_id, e.center_id, m.status`
     }
    ${
      source === 'totals'
        ? `union all
    select t.student_id, t.subject_id, t.center_id, t.status, t.sessions
      from attendance_totals t
     where t.month >= (select months_from from bounds) and t.month < (select months_to from bounds) and t.sessions <> 0`
        : ''
    }),
  by_status as (
    select x.student_id, x.subject_id, x.status, sum(x.n)::int as n from x where true ${filters} group by x.student_id, x.subject_id, x.status),
  totals as (
    select b.student_id, b.subject_id, sum(b.n)::int as sessions, coalesce(sum(b.n) filter (where st.weight is not null), 0)::int as counted,
           round(100 * sum(b.n * st.weight) / nullif(sum(b.n) filter (where st.weight is not null), 0), 2)::float8 as percentage,
           json_object_agg(b.status, b.n) as counts
      from by_status b join attendance_statuses st on st.code = b.status
     group by b.student_id, b.subject_id)
  select t.student_id as "studentId", ${named ? `trim(s.name || ' ' || s.lastname)` : 'null'} as "studentName", t.subject_id as "subjectId", sub.name as "subjectName",
         t.sessions, t.counted, t.counts, t.percentage
    from totals t
    ${named ? 'join students s on s.id = t.student_id and s.erased_at is null' : ''}
    join subjects sub on sub.id = t.subject_id
   where true ${outer}
   order by ${named ? 's.lastname, s.name, t.student_id, ' : ''}sub.name, t.subject_id`;
};

export interface SummaryRow {
  studentId: number;
  studentName: string;
  subjectId: number;
  subjectName: string;
  sessions: number;
  counted: number;
  counts: Record<string, number>;
  percentage: number | null;
}

/** Which rows a summary or the report counts: a student, a subject (or several), a center, a teacher's registrations. */
export interface SummaryFilter {
  studentId?: number;
  subjectId?: number;
  subjectIds?: number[];
  centerId?: number;
  /** Only students this employee teaches in the row's subject (a registration not cancelled names them). */
  taughtBy?: number;
}

/** The filter as SQL on the rows `x` (student_id, subject_id, center_id) and its parameters. */
function filterSql(filter: SummaryFilter): { filters: string; params: unknown[] } {
  let filters = '';
  const params: unknown[] = [];
  if (filter.studentId !== undefined) {
    filters += ' and x.student_id = ?';
    params.push(filter.studentId);
  }
  if (filter.subjectId !== undefined) {
    filters += ' and x.subject_id = ?';
    params.push(filter.subjectId);
  }
  if (filter.centerId !== undefined) {
    filters += ' and x.center_id = ?';
    params.push(filter.centerId);
  }
  if (filter.subjectIds !== undefined) {
    filters += ' and x.subject_id = any(?::int[])';
    params.push(pgArray(filter.subjectIds));
  }
  if (filter.taughtBy !== undefined) {
    filters += ` and exists (select 1 from registrations r where r.student_id = x.student_id and r.subject_id = x.subject_id and r.employee_id = ? and r.status <> 'cancelled')`;
    params.push(filter.taughtBy);
  }
  return { filters, params };
}

const rangeParams = (range: DayRange, timeZone: string) => [range.from, timeZone, range.to, timeZone];

/** A student's summary per subject, from their marks; a prepared statement (one per variant of the filters, planned once per connection): the summary is read often. */
export async function selectStudentSummary(em: EntityManager, filter: SummaryFilter & { studentId: number }, range: DayRange, timeZone: string): Promise<SummaryRow[]> {
  const { filters, params } = filterSql(filter);
  return new Sql(em).query<SummaryRow>(numberedPlaceholders(summarySql(filters, '', 'one student')), [...rangeParams(range, timeZone), ...params]);
}

/** The report's rows: the totals of the whole months and the marks of the edge days; with `below`, only those under it. */
export async function selectReportRows(em: EntityManager, filter: SummaryFilter, range: DayRange, timeZone: string, below: number | undefined): Promise<SummaryRow[]> {
  const { filters, params } = filterSql(filter);
  const outer = below === undefined ? '' : 'and t.percentage < ?';
  return em.execute<SummaryRow[]>(summarySql(filters, outer, 'totals'), [...rangeParams(range, timeZone), ...params, ...(below === undefined ? [] : [below])]);
}

export async function studentExists(em: EntityManager, studentId: number): Promise<boolean> {
  const [student] = await em.execute(`select 1 from students where id = ?`, [studentId]);
  return student !== undefined;
}

/** The subjects (of `subjectId` only, when given) in which the employee teaches the student: a registration not cancelled names them. */
export async function subjectsTeachingStudent(em: EntityManager, studentId: number, employeeId: number | null, subjectId: number | undefined): Promise<number[]> {
  const taught = await em.execute<{ subjectId: number }[]>(
    `select distinct subject_id as "subjectId" from registrations where student_id = ? and employee_id = ? and status <> 'cancelled' and (?::int is null or subject_id = ?::int)`,
    [studentId, employeeId, subjectId ?? null, subjectId ?? null],
  );
  return taught.map((row) => row.subjectId);
}

/** Whether a registration not cancelled names the employee as the subject's teacher. */
export async function teachesSubject(em: EntityManager, employeeId: number, subjectId: number): Promise<boolean> {
  const [teaches] = await em.execute(`select 1 from registrations where employee_id = ? and subject_id = ? and status <> 'cancelled' limit 1`, [employeeId, subjectId]);
  return teaches !== undefined;
}

/**
 * The versions of `attendance_report_versions` (see its migration), read in one query: the subject's
 * (0 while it has none), or with no subject the sum over every subject's (versions only grow and rows
 * are never deleted, so the sum grows with every bump), and the global one. The epoch is the global
 * row's with the database's oid: a database copied from another (a test database cloned from the migrated
 * template, a restored backup) holds the same row, and must not answer from the other's cached reports.
 */
export async function reportVersions(em: EntityManager, subjectId: number | undefined): Promise<ReportVersions | null> {
  const scope = subjectId === undefined ? null : `subject:${subjectId}`;
  const [row] = await em.execute<ReportVersions[]>(
    `select g.epoch::text || ':' || (select d.oid from pg_database d where d.datname = current_database())::text as epoch, g.version::text as global,
            (select coalesce(sum(v.version), 0) from attendance_report_versions v where v.scope like 'subject:%' and (?::text is null or v.scope = ?::text))::text as subjects
       from attendance_report_versions g where g.scope = 'global'`,
    [scope, scope],
  );
  return row ?? null;
}

// ---------------------------------------------------------------- the report as CSV rows

/** `filters` as filterSql builds them, on the report's sessions `x`. */
const csvSql = (filters: string, outer: string) => `
  with sessions as (
    select x.*, st.weight
      from (select m.student_id, e.subject_id, e.center_id, e.id as event_id, e.starts_at, e.ends_at, m.status, m.minutes_late, m.remark
              from attendance_marks m join calendar_events e on e.id = m.event_id) x
      join attendance_statuses st on st.code = x.status
     where x.starts_at >= ${DAY_START_SQL} and x.starts_at < ${DAY_END_SQL} ${filters}),
  totals as (
    select student_id, subject_id, count(*)::int as sessions, count(*) filter (where weight is not null)::int as counted,
           round(100 * sum(weight) / nullif(count(*) filter (where weight is not null), 0), 2)::float8 as percentage
      from sessions group by student_id, subject_id)
  select x.student_id as "studentId", trim(s.name || ' ' || s.lastname) as student, x.subject_id as "subjectId", sub.name as subject,
         x.center_id as "centerId", x.event_id as "eventId",
         to_char(x.starts_at, 'YYYY-MM-DD"T"HH24:MI:SSTZH:TZM') as "startsAt", to_char(x.ends_at, 'YYYY-MM-DD"T"HH24:MI:SSTZH:TZM') as "endsAt",
         x.status, x.minutes_late as "minutesLate", x.remark, t.sessions, t.counted, t.percentage
    from sessions x
    join totals t using (student_id, subject_id)
    join students s on s.id = x.student_id and s.erased_at is null
    join subjects sub on sub.id = x.subject_id
   where true ${outer}
   order by s.lastname, s.name, x.student_id, sub.name, x.subject_id, x.starts_at, x.event_id`;

/** One student × session of the CSV report, with its student-subject group's totals. */
export interface ReportSessionRow {
  studentId: number;
  student: string;
  subjectId: number;
  subject: string;
  centerId: number;
  eventId: number;
  startsAt: string;
  endsAt: string;
  status: string;
  minutesLate: number | null;
  remark: string | null;
  sessions: number;
  counted: number;
  percentage: number | null;
}

/**
 * Reads the report's sessions from a PostgreSQL cursor (pg-query-stream, batches of 200) and hands
 * the rows, as an object stream, to `consume`: in a read-only transaction whose time zone is the
 * academy's, so `to_char` writes each instant with the offset it had there. `started` runs once the
 * transaction is open, before the query (what can still fail as an error answer has failed by then).
 */
export async function streamReportSessions(
  em: EntityManager,
  report: { filter: SummaryFilter; range: DayRange; timeZone: string; below?: number },
  consume: { started: () => void; rows: (rows: Readable) => Promise<void> },
): Promise<void> {
  const pool = (await (em.getConnection() as PostgreSqlConnection).getNativeClient()) as unknown as Pool;
  const client = await pool.connect();
  let failure: unknown;
  try {
    await client.query('begin read only');
    await client.query(`select set_config('TimeZone', $1, true)`, [report.timeZone]);
    const { filters, params } = filterSql(report.filter);
    const outer = report.below === undefined ? '' : 'and t.percentage < ?';
    const values = [...rangeParams(report.range, report.timeZone), ...params, ...(report.below === undefined ? [] : [report.below])];
    consume.started();
    await consume.rows(client.query(new QueryStream(numberedPlaceholders(csvSql(filters, outer)), values, { batchSize: 200 })));
    await client.query('commit');
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    // A connection left mid-query (the client went away) is dropped rather than reused.
    client.release(failure instanceof Error ? failure : undefined);
  }
}

// ---------------------------------------------------------------- missing sheets and reminders

/** A class counts as missing when it has ended, has students, and has no sheet. */
const MISSING_SQL = (filters: string) => `
  select e.id as "eventId", e.employee_id as "employeeId", e.subject_id as "subjectId", sub.name as "subjectName",
         e.center_id as "centerId", c.name as "centerName", ${isoSql('e.starts_at')} as "startsAt", ${isoSql('e.ends_at')} as "endsAt",
         (select count(*)::int from event_students es where es.event_id = e.id) as "studentCount"
    from calendar_events e
    join subjects sub on sub.id = e.subject_id
    join centers c on c.id = e.center_id
   where e.ends_at <= ?::timestamptz
     and not exists (select 1 from attendance_sheets sh where sh.event_id = e.id)
     and exists (select 1 from event_students es where es.event_id = e.id)
     ${filters}
   order by e.starts_at, e.id`;

/** The classes ended by `now` that started in the range (of `employeeId` when given) with students and no sheet, oldest first. */
export interface MissingSheet {
  eventId: number;
  employeeId: number | null;
  subjectId: number;
  subjectName: string;
  centerId: number;
  centerName: string;
  startsAt: string;
  endsAt: string;
  studentCount: number;
}

export async function selectMissingSheets(em: EntityManager, filter: { now: Date; range: DayRange; timeZone: string; employeeId?: number }): Promise<MissingSheet[]> {
  const params: unknown[] = [filter.now, filter.range.from, filter.timeZone, filter.range.to, filter.timeZone];
  let filters = `and e.starts_at >= ${DAY_START_SQL} and e.starts_at < ${DAY_END_SQL}`;
  if (filter.employeeId !== undefined) {
    filters += ' and e.employee_id = ?';
    params.push(filter.employeeId);
  }
  return em.execute<MissingSheet[]>(MISSING_SQL(filters), params);
}

/** A class starting in the range with its attendance state and editing window (`AttendanceClassesResponse`'s row). */
export interface ClassState extends MissingSheet {
  state: 'taken' | 'missing' | 'notYet';
  takenAt: string | null;
  opensAt: string;
  locksAt: string;
}

/** The classes that start in the range (of `employeeId` when given), by start, with their state at `now` and their window (as `findClass` computes it). */
export async function selectClassStates(em: EntityManager, filter: { now: Date; range: DayRange; timeZone: string; editDays: number; employeeId?: number }): Promise<ClassState[]> {
  const params: unknown[] = [filter.now, filter.timeZone, filter.editDays, filter.timeZone, filter.range.from, filter.timeZone, filter.range.to, filter.timeZone];
  let employee = '';
  if (filter.employeeId !== undefined) {
    employee = 'and e.employee_id = ?';
    params.push(filter.employeeId);
  }
  return em.execute<ClassState[]>(
    `select e.id as "eventId", e.employee_id as "employeeId", e.subject_id as "subjectId", sub.name as "subjectName",
            e.center_id as "centerId", c.name as "centerName", ${isoSql('e.starts_at')} as "startsAt", ${isoSql('e.ends_at')} as "endsAt",
            (select count(*)::int from event_students es where es.event_id = e.id) as "studentCount",
            case when sh.event_id is not null then 'taken' when e.ends_at <= ?::timestamptz then 'missing' else 'notYet' end as state,
            case when sh.event_id is null then null else ${isoSql('sh.taken_at')} end as "takenAt",
            ${isoSql(`(e.starts_at - interval '15 minutes')`)} as "opensAt",
            ${isoSql('(((e.ends_at at time zone ?)::date + ?::int + 1)::timestamp at time zone ?)')} as "locksAt"
       from calendar_events e
       join subjects sub on sub.id = e.subject_id
       join centers c on c.id = e.center_id
       left join attendance_sheets sh on sh.event_id = e.id
      where e.starts_at >= ${DAY_START_SQL} and e.starts_at < ${DAY_END_SQL} ${employee}
      order by e.starts_at, e.id`,
    params,
  );
}

export interface TeacherToRemind {
  employeeId: number;
  name: string;
  email: string | null;
  userId: number | null;
  locale: Locale | null;
  missingCount: number;
  classes: EventData<'attendance.missing'>['classes'];
}

/** Each active teacher with classes ended by `now` since `firstDay` (with students, no sheet) and no reminder on `day`: at most 50 classes each. */
export async function selectTeachersToRemind(em: EntityManager, window: { now: Date; firstDay: string; day: string; timeZone: string }): Promise<TeacherToRemind[]> {
  return em.execute<TeacherToRemind[]>(
    `with missing as (${MISSING_SQL(`and e.employee_id is not null and e.ends_at >= ${DAY_START_SQL}
            and not exists (select 1 from attendance_reminders r where r.employee_id = e.employee_id and r.day = ?::date)`)})
     select m."employeeId", trim(emp.name || ' ' || emp.lastname) as name, emp.email,
            coalesce(emp.user_id, (select u.id from users u where u.employee_id = emp.id and u.active order by u.id limit 1)) as "userId",
            (select u.locale from users u where u.id = emp.user_id or (emp.user_id is null and u.employee_id = emp.id and u.active) order by u.id limit 1) as locale,
            count(*)::int as "missingCount",
            (select jsonb_agg(x) from (select jsonb_build_object('eventId', m2."eventId", 'subjectId', m2."subjectId", 'subjectName', m2."subjectName", 'centerId', m2."centerId",
                                          'centerName', m2."centerName", 'startsAt', m2."startsAt", 'endsAt', m2."endsAt") as x
                                         from missing m2 where m2."employeeId" = m."employeeId" order by m2."startsAt", m2."eventId" limit 50) l) as classes
       from missing m
       join employees emp on emp.id = m."employeeId" and emp.active
      group by m."employeeId", emp.id, emp.name, emp.lastname, emp.email, emp.user_id
      order by m."employeeId"`,
    [window.now, window.firstDay, window.timeZone, window.day],
  );
}

/** The teacher-day's reminder row; false when another run wrote it first. */
export async function insertReminder(tx: EntityManager, reminder: { employeeId: number; day: string; missingCount: number; sentAt: Date }): Promise<boolean> {
  const inserted = await tx.execute(
    `insert into attendance_reminders (employee_id, day, missing_count, sent_at) values (?, ?::date, ?, ?::timestamptz) on conflict do nothing returning 1`,
    [reminder.employeeId, reminder.day, reminder.missingCount, reminder.sentAt],
  );
  return inserted.length > 0;
}

// ---------------------------------------------------------------- demo data

export interface DemoClass {
  id: number;
  title: string | null;
  subjectId: number;
  centerId: number;
  employeeId: number | null;
  startsAt: Date;
  endsAt: Date;
}

export async function selectDemoClasses(em: EntityManager): Promise<DemoClass[]> {
  return em.execute<DemoClass[]>(
    `select id, title, subject_id as "subjectId", center_id as "centerId", employee_id as "employeeId", starts_at as "startsAt", ends_at as "endsAt" from calendar_events order by id`,
  );
}

/** A copy of `event` at other times, with its roster; answers the copy's id. */
export async function insertClassCopy(em: EntityManager, event: DemoClass, startsAt: Date, endsAt: Date): Promise<number> {
  const [copy] = await em.execute<{ id: number }[]>(
    `insert into calendar_events (title, subject_id, center_id, employee_id, starts_at, ends_at, created_at, updated_at)
     values (?, ?, ?, ?, ?::timestamptz, ?::timestamptz, now(), now()) returning id`,
    [event.title, event.subjectId, event.centerId, event.employeeId, startsAt, endsAt],
  );
  await copyRoster(em, event.id, copy!.id);
  return copy!.id;
}

/** A copy of the class `eventId` (as stored) at other times, with its roster; answers the copy's id. */
export async function insertStoredClassCopy(em: EntityManager, eventId: number, startsAt: Date, endsAt: Date): Promise<number> {
  const [created] = await em.execute<{ id: number }[]>(
    `insert into calendar_events (title, subject_id, center_id, employee_id, starts_at, ends_at, created_at, updated_at)
     select title, subject_id, center_id, employee_id, ?::timestamptz, ?::timestamptz, now(), now() from calendar_events where id = ? returning id`,
    [startsAt, endsAt, eventId],
  );
  await copyRoster(em, eventId, created!.id);
  return created!.id;
}

async function copyRoster(em: EntityManager, fromEventId: number, toEventId: number): Promise<void> {
  await em.execute(`insert into event_students (event_id, student_id, assigned_at) select ?, student_id, now() from event_students where event_id = ?`, [toEventId, fromEventId]);
}

/** Every class, oldest first, with its roster and its teacher's first login. */
export async function selectClassesWithRosters(em: EntityManager): Promise<(DemoClass & { roster: number[]; userId: number | null })[]> {
  return em.execute(
    `select e.id, e.subject_id as "subjectId", e.center_id as "centerId", e.employee_id as "employeeId", e.starts_at as "startsAt", e.ends_at as "endsAt",
            array(select es.student_id from event_students es where es.event_id = e.id order by es.student_id) as roster,
            (select u.id from users u where u.employee_id = e.employee_id order by u.id limit 1) as "userId"
       from calendar_events e order by e.starts_at, e.id`,
  );
}

/** The first student with a guardian on the first class's roster, and that class's subject. */
export async function selectFirstStudentWithGuardian(em: EntityManager): Promise<{ studentId: number; subjectId: number } | undefined> {
  const [chosen] = await em.execute<{ studentId: number; subjectId: number }[]>(
    `select es.student_id as "studentId", e.subject_id as "subjectId" from event_students es join calendar_events e on e.id = es.event_id
       join students s on s.id = es.student_id where s.guardian_id is not null order by e.id, es.student_id limit 1`,
  );
  return chosen;
}

/** Per subject, the students with any mark. */
export async function selectMarkedStudentsBySubject(em: EntityManager): Promise<{ subjectId: number; studentIds: number[] }[]> {
  return em.execute(`select e.subject_id as "subjectId", array_agg(distinct m.student_id) as "studentIds" from attendance_marks m join calendar_events e on e.id = m.event_id group by e.subject_id`);
}
