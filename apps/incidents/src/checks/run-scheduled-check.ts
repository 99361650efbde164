import { describe } from '../shared/incident-rules.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { recordIncident, type NewIncident } from '../shared/record-incident.ts';
import { absencesFromTimetable, absencesOnWorkingDays, lateClockIns, recordsOpenTooLong } from './checks.store.ts';

export interface CheckResult {
  openTooLong: number;
  absences: number;
  lateClockIns: number;
}

/** Rows looked at per run; a backlog is taken by the next runs. */
const BATCH = 500;

/**
 * The scheduled check at `input.now`; the scheduler is its caller, no person: `(ctx, input)`. Safe to run on
 * several instances at once: every incident it creates has its unique key and is inserted with ON
 * CONFLICT DO NOTHING together with its event, so a concurrent run's insert is a no-op (no
 * duplicate incident, no duplicate event).
 */
export async function runScheduledCheck(ctx: IncidentsContext, input: { now: Date }): Promise<CheckResult> {
  return {
    openTooLong: await flagOpenRecords(ctx, input.now),
    absences: await flagAbsences(ctx, input.now),
    lateClockIns: await flagLateClockIns(ctx, input.now),
  };
}

/**
 * Records still open past the limit get a RECORD_OPEN_TOO_LONG incident proposing a clock-out
 * (clock-in + the usual shift, never past now); the record itself is left as it is. One incident
 * per record, however many days it stays open and however many instances run the check.
 */
async function flagOpenRecords(ctx: IncidentsContext, now: Date): Promise<number> {
  const { config } = ctx;
  const rows = await recordsOpenTooLong(ctx.db.query, now, { limitHours: config.OPEN_RECORD_LIMIT_HOURS, proposedShiftHours: config.PROPOSED_SHIFT_HOURS, batch: BATCH });
  return recordEach(
    ctx,
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
async function flagAbsences(ctx: IncidentsContext, now: Date): Promise<number> {
  const { config } = ctx;
  const rule = { timeZone: config.ACADEMY_TIME_ZONE, graceMinutes: config.ABSENCE_GRACE_MINUTES, batch: BATCH };
  const fromTimetable = config.ABSENCE_RULE === 'timetable';
  const rows = fromTimetable
    ? await absencesFromTimetable(ctx.db.query, now, rule)
    : await absencesOnWorkingDays(ctx.db.query, now, { ...rule, workingDays: config.WORKING_DAYS, deadline: config.ABSENCE_DEADLINE });
  return recordEach(
    ctx,
    rows.map((row) => ({
      id: row.incidentId,
      employeeId: row.employeeId,
      employeeUserId: row.employeeUserId,
      kind: 'ABSENCE',
      description: (fromTimetable ? describe.absenceFromClass : describe.absence)(row.day, row.expectedAt, rule.graceMinutes, rule.timeZone),
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
async function flagLateClockIns(ctx: IncidentsContext, now: Date): Promise<number> {
  const { config } = ctx;
  const rule = { timeZone: config.ACADEMY_TIME_ZONE, graceMinutes: config.ABSENCE_GRACE_MINUTES, batch: BATCH };
  const rows = await lateClockIns(ctx.db.query, now, rule);
  return recordEach(
    ctx,
    rows.map((row) => ({
      id: row.incidentId,
      employeeId: row.employeeId,
      employeeUserId: row.employeeUserId,
      kind: 'LATE_CLOCK_IN',
      description: describe.lateClockIn(row.day, row.clockIn, row.classStart, rule.graceMinutes, rule.timeZone),
      source: row.source,
      deviceId: row.deviceId,
      timeRecordId: null,
      day: row.day,
      proposedEndAt: null,
    })),
  );
}

/** Records each candidate (a no-op for one another instance recorded first); answers how many were new. */
async function recordEach(ctx: IncidentsContext, candidates: NewIncident[]): Promise<number> {
  let created = 0;
  for (const candidate of candidates) if (await recordIncident(ctx, candidate, null)) created += 1;
  return created;
}
