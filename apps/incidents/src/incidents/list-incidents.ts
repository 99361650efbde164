import type { IncidentListQuery } from '@academy/contracts';
import type { Actor } from '../shared/actor.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { listMatching } from './incidents.store.ts';

/** `GET /incident/` (admin, the route's role): filters, most severe first by default. Not cached: its filters are open-ended. */
export async function listIncidents(ctx: IncidentsContext, input: IncidentListQuery, _actor: Actor) {
  return listMatching(ctx.db.query, {
    status: input.status ?? null,
    employeeId: input.employeeId ?? null,
    kind: input.kind ?? null,
    severity: input.severity ?? null,
    from: input.from ?? null,
    to: input.to ?? null,
    sort: input.sort,
    page: input.page,
    limit: input.limit,
  });
}
