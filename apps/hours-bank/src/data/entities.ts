import { HoursBank, HoursTransaction } from './hours-bank.entity.ts';
import { EmployeeReplica, SchoolCourseReplica } from './replicas.entity.ts';

/** Every MikroORM entity of this service (the outbox and inbox come from @academy/messaging). */
export const entities = [EmployeeReplica, SchoolCourseReplica, HoursBank, HoursTransaction];
