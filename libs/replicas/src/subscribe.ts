import type { MikroORM } from '@mikro-orm/postgresql';
import { consume, type Broker, type ConsumeOptions, type Consumer } from '@academy/messaging';
import { replicaHandlers } from './handlers.ts';
import { timetableReplicaHandlers } from './timetable.ts';

/** What a service passes: its `ServiceContext` has both. */
export interface ReplicaHost {
  broker: Broker;
  orm: MikroORM;
}

/**
 * Keeps the service's `employees` and `school_courses` replicas up to date from academic's events:
 * declares `queue` (`<service>.replicas`, quorum, with its retry queues and DLQ), binds the four
 * event types and consumes them; with `timetable: true` also the three `calendar-event.*` types and
 * the employees' first sighting (the service then needs `timetableReplicaEntities`). The other
 * options pass consumer settings through (the defaults of `consume` otherwise). The service's own
 * events go to queues of their own.
 */
export function subscribeReplicas(
  host: ReplicaHost,
  queue: string,
  { timetable = false, ...options }: Omit<ConsumeOptions, 'orm' | 'queue' | 'handlers'> & { timetable?: boolean } = {},
): Promise<Consumer> {
  const handlers = timetable ? timetableReplicaHandlers : replicaHandlers;
  return consume(host.broker, { ...options, orm: host.orm, queue, handlers });
}
