import type { ClockBody, TimeRecord } from '@academy/contracts';
import { ownEmployee, type Actor } from '../shared/actor.ts';
import { describe } from '../shared/incident-rules.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { incidentIdByKey } from '../shared/new-incidents.store.ts';
import { recordIncident } from '../shared/record-incident.ts';
import { employeeInactive, recordAlreadyOpen } from './time-records.errors.ts';
import { findOpenRecordForIncident, openNewRecord } from './time-records.store.ts';

/**
 * Clock-in of the token's employee. With a record already open the clock-in is refused (409) and
 * a CLOCK_IN_WHILE_OPEN incident is recorded on that record, once however often it is retried: a
 * second open record would overlap the first and count its time twice, and closing the first
 * would invent its end. The partial unique index on open records decides races.
 */
export async function clockIn(ctx: IncidentsContext, input: ClockBody, actor: Actor): Promise<TimeRecord> {
  const employeeId = ownEmployee(actor);
  const deviceId = input.deviceId ?? null;
  // Twice at most: the open record that refused us may be clocked out before we read it.
  for (let attempt = 0; attempt < 3; attempt++) {
    const now = ctx.clock.now().toISOString();
    const { gone, record: created } = await openNewRecord(ctx.db.query, { employeeId, source: input.source, deviceId, at: now });
    if (gone) throw employeeInactive();
    if (created) return created;
    const open = await findOpenRecordForIncident(ctx.db.query, employeeId, ctx.clock.now().toISOString());
    if (!open) continue;
    const { record, at, incidentId } = open;
    const key = { timeRecordId: record.id, kind: 'CLOCK_IN_WHILE_OPEN' as const };
    const inserted = await recordIncident(
      ctx,
      {
        id: incidentId,
        employeeId,
        employeeUserId: actor.userId,
        kind: key.kind,
        description: describe.clockInWhileOpen(at, input.source, deviceId, record.id, record.clockInAt),
        source: input.source,
        deviceId,
        timeRecordId: record.id,
        day: null,
        proposedEndAt: null,
      },
      actor.userId,
      actor.correlationId,
    );
    throw recordAlreadyOpen({ record, incidentId: inserted ? incidentId : await incidentIdByKey(ctx.db.query, key) });
  }
  throw new Error(`clock-in of employee ${employeeId} kept racing with clock-outs`);
}
