// The reads: a class's sheet and its history, a student's summary per subject, the report (JSON).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AttendanceReportQuery, AttendanceSheetResponse, StudentAttendanceQuery } from '@academy/contracts';
import { numberedPlaceholders, pgArray, Sql } from '@academy/db';
import type { z } from 'zod';
import { isAdmin, type AttendanceActor } from './attendance-actor.ts';
import { eventNotFound, notEventTeacher, notSubjectTeacher, studentNotFound } from './attendance.errors.ts';
import { findClass, isoSql, readSheet } from './attendance.store.ts';
import { DAY_END_SQL, DAY_START_SQL, type DayRange } from './academy-days.ts';

async function classOf(em: EntityManager, eventId: number, actor: AttendanceActor, timeZone: string, now: Date) {
  const event = await findClass(em, eventId, { timeZone, editDays: 0, now });
  if (!event) throw eventNotFound();
  if (!isAdmin(actor) && (actor.employeeId === null || event.employeeId !== actor.employeeId)) throw notEventTeacher(eventId);
  return event;
}

export async function readAttendanceSheet(em: EntityManager, eventId: number, actor: AttendanceActor, timeZone: string, now: Date): Promise<AttendanceSheetResponse> {
  return readSheet(em, await classOf(em, eventId, actor, timeZone, now), 0);
}

export async function readAttendanceHistory(em: EntityManager, eventId: number, actor: AttendanceActor, timeZone: string, now: Date) {
  await classOf(em, eventId, actor, timeZone, now);
  const rows = await em.execute<
    { studentId: number; fromStatus: string | null; fromMinutesLate: number | null; fromRemark: string | null; toStatus: string; toMinutesLate: number | null; toRemark: string | null; byUserId: number; at: string }[]
  >(
    `select student_id as "studentId", from_status as "fromStatus", from_minutes_late as "fromMinutesLate", from_remark as "fromRemark",
            to_status as "toStatus", to_minutes_late as "toMinutesLate", to_remark as "toRemark", changed_by_user_id as "byUserId", ${isoSql('changed_at')} as at
       from attendance_mark_changes where event_id = ? order by id`,
    [eventId],
  );
  return {
    data: rows.map((row) => ({
      studentId: row.studentId,
      from: { status: row.fromStatus, minutesLate: row.fromMinutesLate, remark: row.fromRemark },
      to: { status: row.toStatus, minutesLate: row.toMinutesLate, remark: row.toRemark },
      byUserId: row.byUserId,
      at: row.at,
    })),
  };
}

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
    ${named ? 'join students s on s.id = t.student_id' : ''}
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

const rangeParams = (range: DayRange, timeZone: string) => [range.from, timeZone, range.to, timeZone];

async function mustExist(em: EntityManager, studentId: number): Promise<void> {
  const [student] = await em.execute(`select 1 from students where id = ?`, [studentId]);
  if (!student) throw studentNotFound();
}

/** A student's attendance per subject: admins any; a teacher only in the subjects they teach the student. */
export async function readStudentAttendance(em: EntityManager, studentId: number, query: z.infer<typeof StudentAttendanceQuery>, range: DayRange, actor: AttendanceActor, timeZone: string) {
  let filters = 'and x.student_id = ?';
  const params: unknown[] = [studentId];
  if (query.subjectId !== undefined) {
    filters += ' and x.subject_id = ?';
    params.push(query.subjectId);
  }
  if (!isAdmin(actor)) {
    const taught = await em.execute<{ subjectId: number }[]>(
      `select distinct subject_id as "subjectId" from registrations where student_id = ? and employee_id = ? and status <> 'cancelled' and (?::int is null or subject_id = ?::int)`,
      [studentId, actor.employeeId, query.subjectId ?? null, query.subjectId ?? null],
    );
    if (taught.length === 0) {
      await mustExist(em, studentId);
      throw notSubjectTeacher();
    }
    filters += ' and x.subject_id = any(?::int[])';
    params.push(pgArray(taught.map((row) => row.subjectId)));
  }
  // A prepared statement (one per variant of the filters, planned once per connection): the summary is read often.
  const rows = await new Sql(em).query<SummaryRow>(numberedPlaceholders(summarySql(filters, '', 'one student')), [...rangeParams(range, timeZone), ...params]);
  // Only a student with no marks in the range costs a second query, to tell them from one who does not exist.
  if (rows.length === 0) await mustExist(em, studentId);
  return { studentId, from: range.from, to: range.to, subjects: rows.map(({ studentId: _student, studentName: _name, ...subject }) => subject) };
}

/** The report's filters on its rows `x` (student_id, subject_id, center_id): admins any; a teacher must name a subject they teach, and sees their students in it. */
export async function reportFilters(em: EntityManager, query: AttendanceReportQuery, actor: AttendanceActor): Promise<{ filters: string; params: unknown[] }> {
  let filters = '';
  const params: unknown[] = [];
  if (query.subjectId !== undefined) {
    filters += ' and x.subject_id = ?';
    params.push(query.subjectId);
  }
  if (query.centerId !== undefined) {
    filters += ' and x.center_id = ?';
    params.push(query.centerId);
  }
  if (!isAdmin(actor)) {
    if (query.subjectId === undefined || actor.employeeId === null) throw notSubjectTeacher();
    const [teaches] = await em.execute(`select 1 from registrations where employee_id = ? and subject_id = ? and status <> 'cancelled' limit 1`, [actor.employeeId, query.subjectId]);
    if (!teaches) throw notSubjectTeacher();
    filters += ` and exists (select 1 from registrations r where r.student_id = x.student_id and r.subject_id = x.subject_id and r.employee_id = ? and r.status <> 'cancelled')`;
    params.push(actor.employeeId);
  }
  return { filters, params };
}

export async function readAttendanceReport(em: EntityManager, query: AttendanceReportQuery, range: DayRange, actor: AttendanceActor, settings: { timeZone: string; thresholdPercent: number }) {
  const { filters, params } = await reportFilters(em, query, actor);
  const threshold = query.below ?? settings.thresholdPercent;
  const outer = query.below === undefined ? '' : 'and t.percentage < ?';
  const rows = await em.execute<SummaryRow[]>(summarySql(filters, outer, 'totals'), [...rangeParams(range, settings.timeZone), ...params, ...(query.below === undefined ? [] : [query.below])]);
  return {
    from: range.from,
    to: range.to,
    thresholdPercent: threshold,
    data: rows.map((row) => ({ ...row, below: row.percentage !== null && row.percentage < threshold })),
  };
}
