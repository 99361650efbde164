import { privacyEntities } from '@academy/privacy';
import { replicaEntities } from '@academy/replicas';
import { HoursBank, HoursTransaction } from './hours-bank/hours-bank.entities.ts';

/** Every MikroORM entity of this service (the outbox and inbox come from @academy/messaging, the employee and school-course replicas from @academy/replicas). */
export const entities = [...replicaEntities, ...privacyEntities, HoursBank, HoursTransaction];
