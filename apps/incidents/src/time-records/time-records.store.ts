import type { TimeRecord } from '@academy/contracts';
import { isoSql, type Query } from '../shared/db.ts';
import { nextIncidentIdSql } from '../shared/new-incidents.store.ts';
import { formatMinutes } from '../shared/time.ts';
import type { ReportIncident, ReportLine } from './report-pdf.ts';

/** Columns of a time record as the API shows it (`r` = time_records); an open record's worked time runs to `now` (a parameter: the service's clock). */
const recordColumns = (now: string) => `r.id, r.employee_id as "employeeId", ${isoSql('r.clock_in_at')} as "clockInAt", ${isoSql('r.clock_out_at')} as "clockOutAt",
  r.clock_in_source as "clockInSource", r.clock_in_device_id as "clockInDeviceId", r.clock_out_source as "clockOutSource",
  r.clock_out_device_id as "clockOutDeviceId",
  floor(extract(epoch from coalesce(r.clock_out_at, ${now}::timestamptz) - r.clock_in_at) / 60)::int as "workedMinutes"`;

export interface Clocking {
  employeeId: number;
  source: TimeRecord['clockInSource'];
  deviceId: string | null;
  /** The service's clock, ISO. */
  at: string;
}

/**
 * Inserts the record unless one is open (the partial unique index decides races) or the replica
 * says the employee is deactivated. An employee the replica does not know yet may clock in: the
 * token (signed by academic) names them, and the replica may lag behind a new hire. The replica's
 * row is key-share locked: an erasure (which locks it `for update` first) commits before, and the
 * clock-in finds the employee deleted instead of opening a record the erasure did not restrict.
 */
const CLOCK_IN = `
with employee as (select deleted or not active as gone from employees where id = $1 for key share),
gone as (select 1 from employee where gone),
r as (
  insert into time_records (employee_id, clock_in_at, clock_in_source, clock_in_device_id, created_at)
  select $1, $4::timestamptz, $2, $3, $4::timestamptz where not exists (select 1 from gone)
  on conflict (employee_id) where clock_out_at is null do nothing
  returning *
)
select exists (select 1 from gone) as gone, ${recordColumns('$4')} from (select 1) one left join r on true`;

/** The new open record; `gone` when the replica says the employee may not clock in; `record` null when one was open already. */
export async function openNewRecord(query: Query, clocking: Clocking): Promise<{ gone: boolean; record: TimeRecord | null }> {
  const [result] = await query<TimeRecord & { gone: boolean }>(CLOCK_IN, [clocking.employeeId, clocking.source, clocking.deviceId, clocking.at]);
  const { gone, ...record } = result!;
  return { gone, record: record.id !== null ? record : null };
}

/** The employee's open record, its worked time up to `now`. */
export async function findOpenRecord(query: Query, employeeId: number, now: string): Promise<TimeRecord | null> {
  const [record] = await query<TimeRecord>(`select ${recordColumns('$2')} from time_records r where r.employee_id = $1 and r.clock_out_at is null`, [employeeId, now]);
  return record ?? null;
}

const OPEN_RECORD_WITH_INCIDENT_ID = `select ${recordColumns('$2')}, ${isoSql('$2::timestamptz')} as now, ${nextIncidentIdSql} as "incidentId"
  from time_records r where r.employee_id = $1 and r.clock_out_at is null`;

/** The open record that refused a clock-in, with `now` as the incident states it and the id its incident would take. */
export async function findOpenRecordForIncident(query: Query, employeeId: number, now: string) {
  const [open] = await query<TimeRecord & { now: string; incidentId: number }>(OPEN_RECORD_WITH_INCIDENT_ID, [employeeId, now]);
  if (!open) return null;
  const { now: at, incidentId, ...record } = open;
  return { record, at, incidentId };
}

/**
 * Closes the open record unless the replica says the employee was deleted (erased). The replica's
 * row is key-share locked first, as at a clock-in: an erasure running now (which locks it `for
 * update` before it forgets the devices) commits before, and the clock-out finds the employee
 * deleted instead of writing a device id back into a record the erasure restricted.
 */
const CLOCK_OUT = `
with employee as (select deleted from employees where id = $1 for key share),
gone as (select 1 from employee where deleted),
r as (
  update time_records set clock_out_at = greatest($4::timestamptz, clock_in_at), clock_out_source = $2, clock_out_device_id = $3
  where employee_id = $1 and clock_out_at is null and not exists (select 1 from gone)
  returning *
)
select exists (select 1 from gone) as gone, ${recordColumns('$4')} from (select 1) one left join r on true`;

/** Closes the employee's open record: `gone` when the replica says the employee was deleted; `record` null when none was open. */
export async function closeOpenRecord(query: Query, clocking: Clocking): Promise<{ gone: boolean; record: TimeRecord | null }> {
  const [result] = await query<TimeRecord & { gone: boolean }>(CLOCK_OUT, [clocking.employeeId, clocking.source, clocking.deviceId, clocking.at]);
  const { gone, ...record } = result!;
  return { gone, record: record.id !== null ? record : null };
}

const LAST_CLOCK_OUT = `
select ($4::timestamptz at time zone $2)::date::text as day, ${nextIncidentIdSql} as "incidentId",
  (select ${isoSql('max(clock_out_at)')} from time_records where employee_id = $1 and clock_out_at > $4::timestamptz - make_interval(secs => $3)) as "recentClockOutAt"`;

/** After a clock-out found nothing open: the local day, the id its incident would take, and a clock-out within `repeatSeconds` if any. */
export async function lastClockOut(query: Query, clocking: Clocking, timeZone: string, repeatSeconds: number) {
  const [state] = await query<{ day: string; incidentId: number; recentClockOutAt: string | null }>(LAST_CLOCK_OUT, [clocking.employeeId, timeZone, repeatSeconds, clocking.at]);
  return state!;
}

/** The employee is in the employees replica (deactivated and deleted ones stay there) or on some time record. */
export async function isKnownEmployee(query: Query, employeeId: number): Promise<boolean> {
  const [known] = await query('select 1 from employees where id = $1 union all select 1 from time_records where employee_id = $1 limit 1', [employeeId]);
  return known !== undefined;
}

/**
 * Worked time per local day (`$4` = time zone) between days `$2` and `$3`: each record is cut at
 * local midnights (a night shift counts on both days, a record left open counts up to now = `$7`), and
 * the day lists the records that touch it. Newest day first.
 */
const DAYS = `
with bounds as (select ($2::date::timestamp at time zone $4) as lo, (($3::date + 1)::timestamp at time zone $4) as hi),
r as (
  select r.id, r.clock_in_at, coalesce(r.clock_out_at, $7::timestamptz) as end_at from time_records r, bounds b
  where r.employee_id = $1 and r.restricted_at is null and r.clock_in_at < b.hi and coalesce(r.clock_out_at, $7::timestamptz) > b.lo
),
seg as (
  select r.id, d::date as day,
    greatest(r.clock_in_at, d at time zone $4) as s,
    least(r.end_at, (d + interval '1 day') at time zone $4) as e
  from r, generate_series((r.clock_in_at at time zone $4)::date::timestamp, (r.end_at at time zone $4)::date::timestamp, interval '1 day') d
),
days as (
  select day, floor(sum(extract(epoch from e - s)) / 60)::int as minutes, array_agg(distinct id order by id) as ids
  from seg where day between $2::date and $3::date and e > s
  group by day
)
select day::text as date, minutes, ids, count(*) over ()::int as "totalDays", coalesce(sum(minutes) over (), 0)::int as "totalMinutes"
from days order by day desc limit $5 offset $6`;

export interface DayRow {
  date: string;
  workedMinutes: number;
  worked: string;
  records: TimeRecord[];
}

/** Days with their records and the period's total; `limit` null = every day. */
export async function workedDays(query: Query, now: Date, employeeId: number, from: string, to: string, timeZone: string, page: { limit: number | null; offset: number }) {
  const rows = await query<{ date: string; minutes: number; ids: number[]; totalDays: number; totalMinutes: number }>(DAYS, [
    employeeId,
    from,
    to,
    timeZone,
    page.limit,
    page.offset,
    now.toISOString(),
  ]);
  const ids = [...new Set(rows.flatMap((row) => row.ids))];
  const records = ids.length
    ? await query<TimeRecord>(`select ${recordColumns('$2')} from time_records r where r.id = any($1::int[]) order by r.clock_in_at`, [ids, now.toISOString()])
    : [];
  const byId = new Map(records.map((record) => [record.id, record]));
  const days: DayRow[] = rows.map((row) => ({
    date: row.date,
    workedMinutes: row.minutes,
    worked: formatMinutes(row.minutes),
    records: row.ids.map((id) => byId.get(id)!).filter(Boolean),
  }));
  // The page may be past the last day: the totals are read again without the window then.
  let totalDays = rows[0]?.totalDays ?? 0;
  let totalMinutes = rows[0]?.totalMinutes ?? 0;
  if (!rows.length && page.offset > 0) {
    const [first] = await query<{ totalDays: number; totalMinutes: number }>(DAYS, [employeeId, from, to, timeZone, 1, 0, now.toISOString()]);
    totalDays = first?.totalDays ?? 0;
    totalMinutes = first?.totalMinutes ?? 0;
  }
  return { days, totalDays, totalMinutes };
}

/**
 * The month's records cut at local midnights (`$4` time zone), oldest first: a night shift is two
 * lines, one per day, as the history counts it; a record left open counts up to now (`$5`).
 */
const REPORT_LINES = `
with bounds as (select ($2::date::timestamp at time zone $4) as lo, (($3::date + 1)::timestamp at time zone $4) as hi),
r as (
  select r.id, r.clock_in_at, r.clock_out_at is null as open, coalesce(r.clock_out_at, $5::timestamptz) as end_at from time_records r, bounds b
  where r.employee_id = $1 and r.restricted_at is null and r.clock_in_at < b.hi and coalesce(r.clock_out_at, $5::timestamptz) > b.lo
),
seg as (
  select r.id, r.open, r.clock_in_at, r.end_at, d::date as day,
    greatest(r.clock_in_at, d at time zone $4) as s,
    least(r.end_at, (d + interval '1 day') at time zone $4) as e
  from r, generate_series((r.clock_in_at at time zone $4)::date::timestamp, (r.end_at at time zone $4)::date::timestamp, interval '1 day') d
)
select id as "recordId", day::text as day, to_char(s at time zone $4, 'HH24:MI') as "from", to_char(e at time zone $4, 'HH24:MI') as "to",
  s > clock_in_at as continued, e < end_at as continues, open and e = end_at as open, floor(extract(epoch from e - s) / 60)::int as minutes
from seg where day between $2::date and $3::date and e > s
order by s, id`;

/** The employee's month (`from`–`to`) as report lines, in `timeZone`. */
export function reportLines(query: Query, employeeId: number, month: { from: string; to: string }, timeZone: string, now: Date): Promise<ReportLine[]> {
  return query<ReportLine>(REPORT_LINES, [employeeId, month.from, month.to, timeZone, now.toISOString()]);
}

/** The month's incidents of the employee (their day, or the local day they were raised), deleted ones left out. */
const MONTH_INCIDENTS = `
select coalesce(i.day, (i.created_at at time zone $4)::date)::text as day, i.kind, i.severity, i.status, i.description
from incidents i
where i.employee_id = $1 and i.deleted_at is null and coalesce(i.day, (i.created_at at time zone $4)::date) between $2::date and $3::date
order by day, i.id`;

export function monthIncidents(query: Query, employeeId: number, month: { from: string; to: string }, timeZone: string): Promise<ReportIncident[]> {
  return query<ReportIncident>(MONTH_INCIDENTS, [employeeId, month.from, month.to, timeZone]);
}
