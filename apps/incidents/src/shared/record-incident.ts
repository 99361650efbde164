// Every feature that finds an incident (a refused clock, the scheduled check) records it here: one
// writer of new incidents and their `incident.created` events.
import { incidentEnvelope } from './incident-events.ts';
import type { IncidentsContext } from './incidents-context.ts';
import { insertIncident, type NewIncident } from './new-incidents.store.ts';

export type { NewIncident } from './new-incidents.store.ts';

/**
 * Records an incident with its `incident.created` event (a no-op when its key exists) and, when it
 * is new, wakes the relay and drops the employee's cached lists. Answers whether it was new.
 */
export async function recordIncident(ctx: IncidentsContext, incident: NewIncident, byUserId: number | null, correlationId?: string): Promise<boolean> {
  const created = incidentEnvelope(
    'incident.created',
    {
      incidentId: incident.id,
      employeeId: incident.employeeId,
      employeeUserId: incident.employeeUserId,
      status: 'open',
      change: 'created',
      byUserId,
      kind: incident.kind,
      description: incident.description,
    },
    correlationId,
  );
  const inserted = await insertIncident(ctx.db.query, ctx.clock.now(), incident, created);
  if (inserted) {
    ctx.relay.nudge();
    await ctx.cache.invalidate({ employee: incident.employeeId });
  }
  return inserted;
}
