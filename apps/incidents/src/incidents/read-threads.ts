import type { Actor } from '../shared/actor.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { incidentNotFound } from './incidents.errors.ts';
import { canRead, findDetail } from './incidents.store.ts';

/** The incident's conversation, for whoever may read it; cached per incident. */
export async function readThreads(ctx: IncidentsContext, input: { incidentId: number }, actor: Actor) {
  const { incidentId } = input;
  const threads = await ctx.cache.read({ incident: incidentId }, `threads:${incidentId}`, async () => {
    const detail = await findDetail(ctx.db.query, incidentId);
    if (!detail) throw incidentNotFound();
    return { incidentId, employeeId: detail.employeeId, data: detail.messages };
  });
  if (!canRead(actor, threads)) throw incidentNotFound();
  return { incidentId, data: threads.data };
}
