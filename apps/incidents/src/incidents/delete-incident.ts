import type { Actor } from '../shared/actor.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { incidentNotFound } from './incidents.errors.ts';
import { lockIncident, markDeleted, readableDetail, recordUpdate } from './incidents.store.ts';

/**
 * Admin: deletes an incident. Soft: the row keeps its key (so the scheduled check does not create
 * it again) and is never shown again; its files stay stored for the record.
 */
export async function deleteIncident(ctx: IncidentsContext, input: { incidentId: number }, actor: Actor) {
  const { incidentId } = input;
  const { messages: _messages, files: _files, ...before } = await readableDetail(ctx, incidentId, actor);
  const employeeId = await ctx.db.transaction(async (query) => {
    const incident = await lockIncident(query, incidentId);
    if (!incident) throw incidentNotFound();
    before.updatedAt = await markDeleted(query, incidentId, actor.userId);
    await recordUpdate(
      query,
      {
        incidentId,
        employeeId: incident.employeeId,
        employeeUserId: incident.employeeUserId,
        status: incident.status,
        change: 'deleted',
        byUserId: actor.userId,
        kind: incident.kind,
      },
      actor,
    );
    return incident.employeeId;
  });
  ctx.relay.nudge();
  await ctx.cache.invalidate({ incident: incidentId }, { employee: employeeId });
  return before;
}
