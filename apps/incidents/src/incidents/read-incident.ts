import type { IncidentDetail } from '@academy/contracts';
import type { Actor } from '../shared/actor.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { incidentNotFound } from './incidents.errors.ts';
import { findDetail } from './incidents.store.ts';

export interface IncidentRef {
  incidentId: number;
}

/** Admins read every incident; a user only their own employee's, and another's is a 404 like a missing one. */
export function canRead(actor: Actor, incident: { employeeId: number }): boolean {
  return actor.role === 'admin' || (actor.employeeId !== null && actor.employeeId === incident.employeeId);
}

/**
 * The incident with its thread and files, for whoever may read it. Cached per incident (a missing
 * one is not: its id may be created later); the check is per reader.
 */
export async function readIncident(ctx: IncidentsContext, input: IncidentRef, actor: Actor): Promise<IncidentDetail> {
  const { incidentId } = input;
  const detail = await ctx.cache.read({ incident: incidentId }, `detail:${incidentId}`, async () => {
    const found = await findDetail(ctx.db.query, incidentId);
    if (!found) throw incidentNotFound();
    return found;
  });
  if (!canRead(actor, detail)) throw incidentNotFound();
  return detail;
}
