import { BadRequestError, ForbiddenError, pageMeta } from '@academy/kit';
import { HISTORY_MAX_DAYS, type HistoryQuery, type TimeRecord } from '@academy/contracts';
import type { Actor } from '../shared/actor.ts';
import type { Query } from '../shared/db.ts';
import { notAnEmployee } from '../shared/errors.ts';
import { employeeIdRequired, employeeNotFound } from './time-records.errors.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { addDays, dayIn, daysBetween, formatMinutes } from '../shared/time.ts';
import { recordColumns } from './time-records.store.ts';

/** Whose records: a user only their own; an admin whoever they name (or their own). */
export function targetEmployee(actor: Actor, requested: number | undefined): number {
  if (actor.role === 'admin') {
    const employeeId = requested ?? actor.employeeId;
    if (employeeId == null) throw employeeIdRequired();
    return employeeId;
  }
  if (actor.employeeId === null) throw notAnEmployee();
  if (requested !== undefined && requested !== actor.employeeId) throw new ForbiddenError('You may only read your own time records');
  return actor.employeeId;
}

/**
 * `targetEmployee`, and a 404 when the employee is not one this service knows: neither in the
 * employees replica (deactivated and deleted ones stay there) nor on any time record. An unknown
 * id answers "not found", not an empty history or report.
 */
export async function knownTargetEmployee(deps: IncidentsContext, actor: Actor, requested: number | undefined): Promise<number> {
  const employeeId = targetEmployee(actor, requested);
  const [known] = await deps.db.query(
    'select 1 from employees where id = $1 union all select 1 from time_records where employee_id = $1 limit 1',
    [employeeId],
  );
  if (!known) throw employeeNotFound();
  return employeeId;
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
  where r.employee_id = $1 and r.clock_in_at < b.hi and coalesce(r.clock_out_at, $7::timestamptz) > b.lo
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

/** `GET /timerecord/history`. */
export async function readHistory(deps: IncidentsContext, actor: Actor, input: HistoryQuery) {
  const employeeId = await knownTargetEmployee(deps, actor, input.employeeId);
  const timeZone = deps.config.ACADEMY_TIME_ZONE;
  const now = deps.clock.now();
  const to = input.to ?? dayIn(now, timeZone);
  const from = input.from ?? addDays(to, -30);
  if (daysBetween(from, to) > HISTORY_MAX_DAYS)
    throw new BadRequestError('VALIDATION_ERROR', `Invalid request: the range may span at most ${HISTORY_MAX_DAYS} days`, [{ path: 'from', message: `at most ${HISTORY_MAX_DAYS} days before to` }]);
  const { days, totalDays, totalMinutes } = await workedDays(deps.db.query, now, employeeId, from, to, timeZone, {
    limit: input.limit,
    offset: (input.page - 1) * input.limit,
  });
  return {
    employeeId,
    from,
    to,
    totalWorkedMinutes: totalMinutes,
    data: days,
    meta: pageMeta(totalDays, input.page, input.limit),
  };
}
