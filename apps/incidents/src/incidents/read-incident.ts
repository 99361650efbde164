import type { IncidentDetail } from '@academy/contracts';
import type { Actor } from '../shared/actor.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { readableDetail } from './incidents.store.ts';

export interface IncidentRef {
  incidentId: number;
}

/** The incident with its thread and files, for whoever may read it (cached; another's is a 404 like a missing one). */
export function readIncident(ctx: IncidentsContext, input: IncidentRef, actor: Actor): Promise<IncidentDetail> {
  return readableDetail(ctx, input.incidentId, actor);
}
