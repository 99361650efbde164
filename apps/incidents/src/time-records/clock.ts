import type { ClockBody, TimeRecord } from '@academy/contracts';
import type { Actor } from '../shared/actor.ts';
import { alreadyClockedOut, employeeInactive, noOpenRecord, recordAlreadyOpen } from './time-records.errors.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { describe } from '../shared/incident-rules.ts';
import { incidentIdByKey, nextIncidentIdSql, recordIncident } from '../shared/record-incident.ts';
import { recordColumns } from './time-records.store.ts';
import { isoSql } from '../shared/db.ts';

/**
 * Inserts the record unless one is open (the partial unique index decides races) or the replica
 * says the employee is deactivated. An employee the replica does not know yet may clock in: the
 * token (signed by academic) names them, and the replica may lag behind a new hire.
 */
const CLOCK_IN = `
with gone as (select 1 from employees where id = $1 and (deleted or not active)),
r as (
  insert into time_records (employee_id, clock_in_at, clock_in_source, clock_in_device_id, created_at)
  select $1, $4::timestamptz, $2, $3, $4::timestamptz where not exists (select 1 from gone)
  on conflict (employee_id) where clock_out_at is null do nothing
  returning *
)
select exists (select 1 from gone) as gone, ${recordColumns('$4')} from (select 1) one left join r on true`;

const OPEN_RECORD = `select ${recordColumns('$2')}, ${isoSql('$2::timestamptz')} as now, ${nextIncidentIdSql} as "incidentId"
  from time_records r where r.employee_id = $1 and r.clock_out_at is null`;

/**
 * Clock-in of the token's employee. With a record already open the clock-in is refused (409) and
 * a CLOCK_IN_WHILE_OPEN incident is recorded on that record, once however often it is retried: a
 * second open record would overlap the first and count its time twice, and closing the first
 * would invent its end. The partial unique index on open records decides races.
 */
export async function clockIn(deps: IncidentsContext, employeeId: number, input: ClockBody, actor: Actor): Promise<TimeRecord> {
  const { db } = deps;
  const deviceId = input.deviceId ?? null;
  // Twice at most: the open record that refused us may be clocked out before we read it.
  for (let attempt = 0; attempt < 3; attempt++) {
    const [result] = await db.query<TimeRecord & { gone: boolean }>(CLOCK_IN, [employeeId, input.source, deviceId, deps.clock.now().toISOString()]);
    const { gone, ...created } = result!;
    if (gone) throw employeeInactive();
    if (created.id !== null) return created;
    const [open] = await db.query<TimeRecord & { now: string; incidentId: number }>(OPEN_RECORD, [employeeId, deps.clock.now().toISOString()]);
    if (!open) continue;
    const { now, incidentId, ...record } = open;
    const key = { timeRecordId: record.id, kind: 'CLOCK_IN_WHILE_OPEN' as const };
    const inserted = await recordIncident(
      deps,
      {
        id: incidentId,
        employeeId,
        employeeUserId: actor.userId,
        kind: key.kind,
        description: describe.clockInWhileOpen(now, input.source, deviceId, record.id, record.clockInAt),
        source: input.source,
        deviceId,
        timeRecordId: record.id,
        day: null,
        proposedEndAt: null,
      },
      actor.userId,
      actor.correlationId,
    );
    throw recordAlreadyOpen({ record, incidentId: inserted ? incidentId : await incidentIdByKey(db.query, key) });
  }
  throw new Error(`clock-in of employee ${employeeId} kept racing with clock-outs`);
}

const CLOCK_OUT = `
with r as (
  update time_records set clock_out_at = greatest($4::timestamptz, clock_in_at), clock_out_source = $2, clock_out_device_id = $3
  where employee_id = $1 and clock_out_at is null
  returning *
)
select ${recordColumns('$4')} from r`;

const LAST_CLOCK_OUT = `
select ${isoSql('$4::timestamptz')} as now, ($4::timestamptz at time zone $2)::date::text as day, ${nextIncidentIdSql} as "incidentId",
  (select ${isoSql('max(clock_out_at)')} from time_records where employee_id = $1 and clock_out_at > $4::timestamptz - make_interval(secs => $3)) as "recentClockOutAt"`;

/**
 * Clock-out of the open record. Without one: a repeat of a clock-out made moments ago (a double
 * tap, a retried request) is a 409 that changes nothing; otherwise the clock-in is missing, and a
 * CLOCK_OUT_WITHOUT_OPEN incident is recorded for the employee's day (once per day) with the time,
 * so an administrator can complete the record.
 */
export async function clockOut(deps: IncidentsContext, employeeId: number, input: ClockBody, actor: Actor): Promise<TimeRecord> {
  const { db, config } = deps;
  const deviceId = input.deviceId ?? null;
  const now = deps.clock.now().toISOString();
  const [closed] = await db.query<TimeRecord>(CLOCK_OUT, [employeeId, input.source, deviceId, now]);
  if (closed) return closed;
  const [state] = await db.query<{ now: string; day: string; incidentId: number; recentClockOutAt: string | null }>(LAST_CLOCK_OUT, [
    employeeId,
    config.ACADEMY_TIME_ZONE,
    config.CLOCK_OUT_REPEAT_SECONDS,
    now,
  ]);
  const { day, incidentId, recentClockOutAt } = state!;
  if (recentClockOutAt) throw alreadyClockedOut({ lastClockOutAt: recentClockOutAt });
  const key = { employeeId, day, kind: 'CLOCK_OUT_WITHOUT_OPEN' as const };
  const inserted = await recordIncident(
    deps,
    {
      id: incidentId,
      employeeId,
      employeeUserId: actor.userId,
      kind: key.kind,
      description: describe.clockOutWithoutOpen(now, input.source, deviceId),
      source: input.source,
      deviceId,
      timeRecordId: null,
      day,
      proposedEndAt: null,
    },
    actor.userId,
    actor.correlationId,
  );
  throw noOpenRecord({ attemptedAt: now, incidentId: inserted ? incidentId : await incidentIdByKey(db.query, key) });
}

/** `GET /timerecord/open`: the open record, if any. */
export async function openRecord(deps: IncidentsContext, employeeId: number) {
  const [record] = await deps.db.query<TimeRecord>(`select ${recordColumns('$2')} from time_records r where r.employee_id = $1 and r.clock_out_at is null`, [
    employeeId,
    deps.clock.now().toISOString(),
  ]);
  return { hasOpenRecord: record !== undefined, record: record ?? null };
}
