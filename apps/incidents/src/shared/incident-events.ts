import { createEnvelope, type EventData } from '@academy/contracts';

/** The `source` of this service's events. */
export const SOURCE = 'incidents';

type IncidentEvent = 'incident.created' | 'incident.updated';

/** An incident's event, as the outbox keeps it. */
export const incidentEnvelope = <T extends IncidentEvent>(type: T, data: EventData<T>, correlationId?: string) =>
  createEnvelope(type, data, { source: SOURCE, correlationId });
