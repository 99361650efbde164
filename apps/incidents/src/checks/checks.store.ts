// SQL of the scheduled check: the time records, and the employees and timetable replicas.
import type { ClockSource } from '@academy/contracts';
import { isoSql, type Query } from '../shared/db.ts';
import { nextIncidentIdSql } from '../shared/new-incidents.store.ts';

/** The login of a record's employee (`r` = time_records), from the employees replica. */
const EMPLOYEE_USER_ID_OF_RECORD_SQL = `(select e.user_id from employees e where e.id = r.employee_id and not e.deleted)`;

/**
 * Records open for more than `$2` hours at `$1` with no RECORD_OPEN_TOO_LONG yet, oldest first (`$4`
 * batch), each with its proposed end: clock-in + `$3` hours, never past now.
 */
const OPEN_TOO_LONG = `
select r.id, r.employee_id as "employeeId", ${EMPLOYEE_USER_ID_OF_RECORD_SQL} as "employeeUserId", ${isoSql('r.clock_in_at')} as "clockInAt",
  ${isoSql('least(r.clock_in_at + $3 * interval \'1 hour\', $1::timestamptz)')} as "proposedEndAt", ${nextIncidentIdSql} as "incidentId"
from time_records r
where r.clock_out_at is null and r.restricted_at is null and r.clock_in_at < $1::timestamptz - $2 * interval '1 hour'
  and not exists (select 1 from incidents i where i.time_record_id = r.id and i.kind = 'RECORD_OPEN_TOO_LONG')
order by r.clock_in_at limit $4`;

/** No time record of employee `e` touching the local day that starts at `dayStart` and begun before `due` (`$1` = now). */
const noRecordBefore = (dayStart: string, due: string) => `not exists (
    select 1 from time_records r
    where r.employee_id = e.id and r.clock_in_at < ${due} and coalesce(r.clock_out_at, $1::timestamptz) > ${dayStart}
  )`;

const noIncidentYet = (day: string, kind: string) => `not exists (select 1 from incidents i where i.employee_id = e.id and i.day = ${day} and i.kind = '${kind}')`;

/**
 * Absences under `every-working-day`: `$1` now, `$2` time zone, `$3` working ISO weekdays, `$4`
 * deadline HH:MM, `$5` grace minutes, `$6` batch. For today and yesterday (local days) that are
 * working days whose deadline plus grace has passed: each active employee of the replica, known
 * to the service by that day's deadline, with no time record touching that day before the
 * deadline plus grace (a night shift from the day before counts; a later clock-in does not undo
 * the absence, so the result does not depend on when the check runs) and no ABSENCE for it yet.
 */
const ABSENCES_EVERY_WORKING_DAY = `
with days as (
  select d::date as day,
    (d::timestamp at time zone $2) as day_start,
    ((d::date + $4::time)::timestamp at time zone $2) as expected_at,
    ((d::date + $4::time + make_interval(mins => $5::int))::timestamp at time zone $2) as due
  from generate_series((($1::timestamptz at time zone $2)::date - 1)::timestamp, ($1::timestamptz at time zone $2)::date::timestamp, interval '1 day') d
  where extract(isodow from d)::int = any($3::int[])
)
select e.id as "employeeId", e.user_id as "employeeUserId", days.day::text as day, $4::text as "expectedAt", ${nextIncidentIdSql} as "incidentId"
from days
join employees e on e.active and not e.deleted
join employee_first_seen f on f.employee_id = e.id and f.first_seen_at <= days.expected_at
where days.due <= $1::timestamptz
  and ${noRecordBefore('days.day_start', 'days.due')}
  and ${noIncidentYet('days.day', 'ABSENCE')}
order by days.day, e.id
limit $6`;

/**
 * The first class of each teacher on today and yesterday (local days of the classes' starts, `$1`
 * now, `$2` time zone, `$3` grace minutes): live classes that started once both the teacher
 * (`employee_first_seen`) and the class with its current teacher and start (`known_since`) were
 * known to the service, never a day before either. `due` is its start plus the grace.
 */
const FIRST_CLASSES = `
first_classes as (
  select c.employee_id, (c.starts_at at time zone $2)::date as day, min(c.starts_at) as first_start
  from calendar_events c
  join employee_first_seen f on f.employee_id = c.employee_id
  where not c.deleted
    and c.starts_at >= ((($1::timestamptz at time zone $2)::date - 1)::timestamp at time zone $2)
    and c.starts_at < ((($1::timestamptz at time zone $2)::date + 1)::timestamp at time zone $2)
    and c.starts_at >= f.first_seen_at and c.known_since <= c.starts_at
  group by c.employee_id, (c.starts_at at time zone $2)::date
), classes as (
  select employee_id, day, first_start, first_start + make_interval(mins => $3::int) as due, (day::timestamp at time zone $2) as day_start,
    ((day + 1)::timestamp at time zone $2) as day_end
  from first_classes
)`;

/**
 * Absences under `timetable` (`$4` batch): an active teacher whose first class of the day began
 * at least the grace ago, with no time record touching that day before its start plus the grace
 * (the same presence rule as above), and no ABSENCE for that day yet. No class, no absence.
 */
const ABSENCES_FROM_TIMETABLE = `
with ${FIRST_CLASSES}
select e.id as "employeeId", e.user_id as "employeeUserId", classes.day::text as day,
  to_char(classes.first_start at time zone $2, 'HH24:MI') as "expectedAt", ${nextIncidentIdSql} as "incidentId"
from classes join employees e on e.id = classes.employee_id and e.active and not e.deleted
where classes.due <= $1::timestamptz
  and ${noRecordBefore('classes.day_start', 'classes.due')}
  and ${noIncidentYet('classes.day', 'ABSENCE')}
order by classes.day, e.id
limit $4`;

/**
 * Late clock-ins (`$4` batch): the first clock-in of a teacher's day (local) came after the day's
 * first class started plus the grace, and no record was already open when that class started (a
 * night shift that ran into it). One LATE_CLOCK_IN per employee-day; its source and device are
 * the clock-in's.
 */
const LATE_CLOCK_INS = `
with ${FIRST_CLASSES}
select e.id as "employeeId", e.user_id as "employeeUserId", classes.day::text as day,
  first_in.clock_in_source as source, first_in.clock_in_device_id as "deviceId",
  to_char(classes.first_start at time zone $2, 'HH24:MI') as "classStart", to_char(first_in.clock_in_at at time zone $2, 'HH24:MI') as "clockIn",
  ${nextIncidentIdSql} as "incidentId"
from classes
join employees e on e.id = classes.employee_id and not e.deleted
cross join lateral (
  select r.id, r.clock_in_at, r.clock_in_source, r.clock_in_device_id from time_records r
  where r.employee_id = e.id and r.clock_in_at >= classes.day_start and r.clock_in_at < classes.day_end
  order by r.clock_in_at limit 1
) first_in
where first_in.clock_in_at > classes.due
  and not exists (
    select 1 from time_records r
    where r.employee_id = e.id and r.clock_in_at < classes.day_start and coalesce(r.clock_out_at, $1::timestamptz) > classes.first_start
  )
  and ${noIncidentYet('classes.day', 'LATE_CLOCK_IN')}
order by classes.day, e.id
limit $4`;

/** Each candidate comes with the id its incident would take. */
interface Candidate {
  employeeId: number;
  employeeUserId: number | null;
  incidentId: number;
}

export interface OpenTooLong extends Candidate {
  /** The record's id. */
  id: number;
  clockInAt: string;
  proposedEndAt: string;
}

export function recordsOpenTooLong(query: Query, now: Date, rule: { limitHours: number; proposedShiftHours: number; batch: number }): Promise<OpenTooLong[]> {
  return query<OpenTooLong>(OPEN_TOO_LONG, [now.toISOString(), rule.limitHours, rule.proposedShiftHours, rule.batch]);
}

export interface Absence extends Candidate {
  day: string;
  /** The first class's start, or the deadline (local HH:MM). */
  expectedAt: string;
}

export function absencesFromTimetable(query: Query, now: Date, rule: { timeZone: string; graceMinutes: number; batch: number }): Promise<Absence[]> {
  return query<Absence>(ABSENCES_FROM_TIMETABLE, [now.toISOString(), rule.timeZone, rule.graceMinutes, rule.batch]);
}

export function absencesOnWorkingDays(
  query: Query,
  now: Date,
  rule: { timeZone: string; workingDays: number[]; deadline: string; graceMinutes: number; batch: number },
): Promise<Absence[]> {
  return query<Absence>(ABSENCES_EVERY_WORKING_DAY, [now.toISOString(), rule.timeZone, rule.workingDays, rule.deadline, rule.graceMinutes, rule.batch]);
}

export interface LateClockIn extends Candidate {
  day: string;
  source: ClockSource | null;
  deviceId: string | null;
  /** Local HH:MM. */
  classStart: string;
  clockIn: string;
}

export function lateClockIns(query: Query, now: Date, rule: { timeZone: string; graceMinutes: number; batch: number }): Promise<LateClockIn[]> {
  return query<LateClockIn>(LATE_CLOCK_INS, [now.toISOString(), rule.timeZone, rule.graceMinutes, rule.batch]);
}
