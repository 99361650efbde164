import { replicaEntities } from '@academy/replicas';
import { Incident, IncidentFile, IncidentMessage } from './incident.entity.ts';
import { TimeRecord } from './time-record.entity.ts';

/** Every MikroORM entity of this service (the outbox and inbox come from @academy/messaging; employees and school courses are replicas). */
export const entities = [...replicaEntities, TimeRecord, Incident, IncidentMessage, IncidentFile];
