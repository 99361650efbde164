import type { Actor } from '../shared/actor.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { incidentClosed, incidentNotFound } from './incidents.errors.ts';
import { insertMessage, lockIncident, markClosed, readableDetail, recordUpdate } from './incidents.store.ts';

/** Admin: closes an open incident, with an optional closing note on the thread. */
export async function closeIncident(ctx: IncidentsContext, input: { incidentId: number; note?: string }, actor: Actor) {
  const { incidentId, note } = input;
  const employeeId = await ctx.db.transaction(async (query) => {
    const incident = await lockIncident(query, incidentId);
    if (!incident) throw incidentNotFound();
    if (incident.status === 'closed') throw incidentClosed();
    const messageId = note ? await insertMessage(query, incidentId, 'admin', actor, note, []) : null;
    await markClosed(query, incidentId, actor.userId);
    await recordUpdate(
      query,
      {
        incidentId,
        employeeId: incident.employeeId,
        employeeUserId: incident.employeeUserId,
        status: 'closed',
        change: 'status_changed',
        byUserId: actor.userId,
        kind: incident.kind,
        messageId,
        message: note ?? null,
        fileCount: 0,
      },
      actor,
    );
    return incident.employeeId;
  });
  ctx.relay.nudge();
  await ctx.cache.invalidate({ incident: incidentId }, { employee: employeeId });
  const { messages: _messages, files: _files, ...summary } = await readableDetail(ctx, incidentId, actor);
  return summary;
}
