// SQL of the scheduled check that reads the employees replica.
import { nextIncidentIdSql } from '../incidents/incident-store.ts';

/** The login of a record's employee (`r` = time_records), from the employees replica. */
export const EMPLOYEE_USER_ID_OF_RECORD_SQL = `(select e.user_id from employees e where e.id = r.employee_id and not e.deleted)`;

/**
 * Absences: `$1` now, `$2` time zone, `$3` working ISO weekdays, `$4` deadline HH:MM, `$5` grace
 * minutes, `$6` batch. For today and yesterday (local days) that are working days whose deadline
 * plus grace has passed: each active employee of the replica with no time record touching that
 * day before the deadline plus grace (a night shift from the day before counts; a later clock-in
 * does not undo the absence, so the result does not depend on when the check runs) and no
 * ABSENCE incident for it yet.
 */
export const ABSENCE_CANDIDATES = `
with days as (
  select d::date as day,
    (d::timestamp at time zone $2) as day_start,
    ((d::date + $4::time + make_interval(mins => $5::int))::timestamp at time zone $2) as due
  from generate_series((($1::timestamptz at time zone $2)::date - 1)::timestamp, ($1::timestamptz at time zone $2)::date::timestamp, interval '1 day') d
  where extract(isodow from d)::int = any($3::int[])
)
select e.id as "employeeId", e.user_id as "employeeUserId", days.day::text as day, ${nextIncidentIdSql} as "incidentId"
from days join employees e on e.active and not e.deleted
where days.due <= $1::timestamptz
  and not exists (
    select 1 from time_records r
    where r.employee_id = e.id and r.clock_in_at < days.due and coalesce(r.clock_out_at, $1::timestamptz) > days.day_start
  )
  and not exists (select 1 from incidents i where i.employee_id = e.id and i.day = days.day and i.kind = 'ABSENCE')
order by days.day, e.id
limit $6`;
