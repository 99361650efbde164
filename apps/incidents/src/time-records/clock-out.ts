import type { ClockBody, TimeRecord } from '@academy/contracts';
import { ownEmployee, type Actor } from '../shared/actor.ts';
import { describe } from '../shared/incident-rules.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { incidentIdByKey } from '../shared/new-incidents.store.ts';
import { recordIncident } from '../shared/record-incident.ts';
import { alreadyClockedOut, employeeDeleted, noOpenRecord } from './time-records.errors.ts';
import { closeOpenRecord, lastClockOut } from './time-records.store.ts';

/**
 * Clock-out of the token's employee's open record; an employee the replica says was deleted (erased)
 * is refused (403), as at a clock-in. Without one: a repeat of a clock-out made
 * moments ago (a double tap, a retried request) is a 409 that changes nothing; otherwise the
 * clock-in is missing, and a CLOCK_OUT_WITHOUT_OPEN incident is recorded for the employee's day
 * (once per day) with the time, so an administrator can complete the record.
 */
export async function clockOut(ctx: IncidentsContext, input: ClockBody, actor: Actor): Promise<TimeRecord> {
  const employeeId = ownEmployee(actor);
  const deviceId = input.deviceId ?? null;
  const now = ctx.clock.now().toISOString();
  const clocking = { employeeId, source: input.source, deviceId, at: now };
  const { gone, record: closed } = await closeOpenRecord(ctx.db.query, clocking);
  if (gone) throw employeeDeleted();
  if (closed) return closed;
  const { day, incidentId, recentClockOutAt } = await lastClockOut(ctx.db.query, clocking, ctx.config.ACADEMY_TIME_ZONE, ctx.config.CLOCK_OUT_REPEAT_SECONDS);
  if (recentClockOutAt) throw alreadyClockedOut({ lastClockOutAt: recentClockOutAt });
  const key = { employeeId, day, kind: 'CLOCK_OUT_WITHOUT_OPEN' as const };
  const inserted = await recordIncident(
    ctx,
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
  throw noOpenRecord({ attemptedAt: now, incidentId: inserted ? incidentId : await incidentIdByKey(ctx.db.query, key) });
}
