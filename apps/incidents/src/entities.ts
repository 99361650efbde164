import { privacyEntities } from '@academy/privacy';
import { replicaEntities, timetableReplicaEntities } from '@academy/replicas';
import { Incident, IncidentFile, IncidentMessage } from './incidents/incidents.entities.ts';
import { TimeRecord } from './time-records/time-records.entities.ts';

/** Every MikroORM entity of this service (the outbox and inbox come from @academy/messaging; employees, school courses and the timetable are replicas). */
export const entities = [...replicaEntities, ...timetableReplicaEntities, ...privacyEntities, TimeRecord, Incident, IncidentMessage, IncidentFile];
