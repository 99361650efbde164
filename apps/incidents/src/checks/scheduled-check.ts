import type { IncidentsContext } from '../shared/incidents-context.ts';
import { isoSql } from '../shared/db.ts';
import { describe } from '../shared/incident-rules.ts';
import { nextIncidentIdSql, recordIncident, type NewIncident } from '../shared/record-incident.ts';
import { ABSENCES_EVERY_WORKING_DAY, ABSENCES_FROM_TIMETABLE, EMPLOYEE_USER_ID_OF_RECORD_SQL, LATE_CLOCK_INS } from './checks.store.ts';
import { inSpan } from '@academy/kit';

export interface CheckResult {
  openTooLong: number;
  absences: number;
  lateClockIns: number;
}

/** Rows looked at per run; a backlog is taken by the next runs. */
const BATCH = 500;

const OPEN_TOO_LONG = `
select r.id, r.employee_id as "employeeId", ${EMPLOYEE_USER_ID_OF_RECORD_SQL} as "employeeUserId", ${isoSql('r.clock_in_at')} as "clockInAt",
  ${isoSql('least(r.clock_in_at + $3 * interval \'1 hour\', $1::timestamptz)')} as "proposedEndAt", ${nextIncidentIdSql} as "incidentId"
from time_records r
where r.clock_out_at is null and r.clock_in_at < $1::timestamptz - $2 * interval '1 hour'
  and not exists (select 1 from incidents i where i.time_record_id = r.id and i.kind = 'RECORD_OPEN_TOO_LONG')
order by r.clock_in_at limit ${BATCH}`;

/**
 * Records still open past the limit get a RECORD_OPEN_TOO_LONG incident proposing a clock-out
 * (clock-in + the usual shift, never past now); the record itself is left as it is. One incident
 * per record, however many days it stays open and however many instances run the check.
 */
async function flagOpenRecords(deps: IncidentsContext, now: Date): Promise<number> {
  const { db, config } = deps;
  const rows = await db.query<{ id: number; employeeId: number; employeeUserId: number | null; clockInAt: string; proposedEndAt: string; incidentId: number }>(
    OPEN_TOO_LONG,
    [now.toISOString(), config.OPEN_RECORD_LIMIT_HOURS, config.PROPOSED_SHIFT_HOURS],
  );
  return recordEach(
    deps,
    rows.map((row) => ({
      id: row.incidentId,
      employeeId: row.employeeId,
      employeeUserId: row.employeeUserId,
      kind: 'RECORD_OPEN_TOO_LONG',
      description: describe.openTooLong(row.id, row.clockInAt, config.OPEN_RECORD_LIMIT_HOURS, row.proposedEndAt),
      source: null,
      deviceId: null,
      timeRecordId: row.id,
      day: null,
      proposedEndAt: row.proposedEndAt,
    })),
  );
}

/**
 * Today's and yesterday's absences (local days), by ABSENCE_RULE: under `timetable` an employee
 * with a class that day and no clock-in by the first class's start plus grace; under
 * `every-working-day` every active employee on a working day with none by the deadline plus
 * grace. Never for a day before the employee (or the class) was known to the service. It blocks
 * nothing: a later clock-in works as usual (spec 1.1.2).
 */
async function flagAbsences(deps: IncidentsContext, now: Date): Promise<number> {
  const { db, config } = deps;
  const timeZone = config.ACADEMY_TIME_ZONE;
  const fromTimetable = config.ABSENCE_RULE === 'timetable';
  const rows = await db.query<{ employeeId: number; employeeUserId: number | null; day: string; expectedAt: string; incidentId: number }>(
    fromTimetable ? ABSENCES_FROM_TIMETABLE : ABSENCES_EVERY_WORKING_DAY,
    fromTimetable
      ? [now.toISOString(), timeZone, config.ABSENCE_GRACE_MINUTES, BATCH]
      : [now.toISOString(), timeZone, config.WORKING_DAYS, config.ABSENCE_DEADLINE, config.ABSENCE_GRACE_MINUTES, BATCH],
  );
  return recordEach(
    deps,
    rows.map((row) => ({
      id: row.incidentId,
      employeeId: row.employeeId,
      employeeUserId: row.employeeUserId,
      kind: 'ABSENCE',
      description: (fromTimetable ? describe.absenceFromClass : describe.absence)(row.day, row.expectedAt, config.ABSENCE_GRACE_MINUTES, timeZone),
      source: null,
      deviceId: null,
      timeRecordId: null,
      day: row.day,
      proposedEndAt: null,
    })),
  );
}

/**
 * Today's and yesterday's late clock-ins: the first clock-in of a teacher's day after the first
 * class's start plus grace gets one LATE_CLOCK_IN for the employee-day (whatever the absence rule:
 * it needs a class). Judged here rather than at the clock-in, so a class that reaches the replica
 * after the clock-in is judged the same.
 */
async function flagLateClockIns(deps: IncidentsContext, now: Date): Promise<number> {
  const { db, config } = deps;
  const timeZone = config.ACADEMY_TIME_ZONE;
  const rows = await db.query<{
    employeeId: number;
    employeeUserId: number | null;
    day: string;
    source: NewIncident['source'];
    deviceId: string | null;
    classStart: string;
    clockIn: string;
    incidentId: number;
  }>(LATE_CLOCK_INS, [now.toISOString(), timeZone, config.ABSENCE_GRACE_MINUTES, BATCH]);
  return recordEach(
    deps,
    rows.map((row) => ({
      id: row.incidentId,
      employeeId: row.employeeId,
      employeeUserId: row.employeeUserId,
      kind: 'LATE_CLOCK_IN',
      description: describe.lateClockIn(row.day, row.clockIn, row.classStart, config.ABSENCE_GRACE_MINUTES, timeZone),
      source: row.source,
      deviceId: row.deviceId,
      timeRecordId: null,
      day: row.day,
      proposedEndAt: null,
    })),
  );
}

/** Records each candidate (a no-op for one another instance recorded first); answers how many were new. */
async function recordEach(deps: IncidentsContext, candidates: NewIncident[]): Promise<number> {
  let created = 0;
  for (const candidate of candidates) if (await recordIncident(deps, candidate, null)) created += 1;
  return created;
}

/**
 * The scheduled check. Safe to run on several instances at once: every incident it creates has
 * its unique key and is inserted with ON CONFLICT DO NOTHING together with its event, so a
 * concurrent run's insert is a no-op (no duplicate incident, no duplicate event).
 */
export async function runScheduledCheck(deps: IncidentsContext, now = deps.clock.now()): Promise<CheckResult> {
  return {
    openTooLong: await flagOpenRecords(deps, now),
    absences: await flagAbsences(deps, now),
    lateClockIns: await flagLateClockIns(deps, now),
  };
}

/** Runs the check every `intervalMs` (never two runs of one instance at once); the returned stop waits for a run in flight. */
export function scheduleChecks(deps: IncidentsContext, intervalMs: number): () => Promise<void> {
  if (intervalMs <= 0) return async () => undefined;
  let current: Promise<void> | null = null;
  const tick = () => {
    current ??= inSpan('scheduled check', { root: true }, () => runScheduledCheck(deps))
      .then((result) => {
        if (result.openTooLong || result.absences || result.lateClockIns) deps.logger.info(result, 'scheduled check created incidents');
      })
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'scheduled check failed; the next run retries'))
      .finally(() => {
        current = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  const first = setTimeout(tick, Math.min(intervalMs, 5_000));
  first.unref();
  return async () => {
    clearInterval(timer);
    clearTimeout(first);
    await current;
  };
}
