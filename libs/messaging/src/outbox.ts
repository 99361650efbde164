import type { EntityManager } from '@mikro-orm/postgresql';
import { createEnvelope, type EventData, type EventType, type TypedEnvelope } from '@academy/contracts';
import { OutboxMessage } from './entities.ts';

export interface EventMeta {
  source: string;
  correlationId?: string;
}

/**
 * Adds an event to the outbox of `em`'s unit of work: it is committed by the same flush (or
 * transaction) as the change it reports, and published by the relay afterwards. `data` is validated
 * against its type's schema here, so an invalid event fails the use case, not the consumer.
 */
export function recordEvent<T extends EventType>(em: EntityManager, type: T, data: EventData<T>, meta: EventMeta): TypedEnvelope<T> {
  const envelope = createEnvelope(type, data, meta);
  em.create(OutboxMessage, { eventId: envelope.id, type, envelope: envelope as unknown as Record<string, unknown> });
  return envelope;
}
