import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { EVENT_VERSION, eventSchemas, type EventData, type EventEnvelope, type EventType } from '@academy/contracts';
import { OutboxMessage } from './entities.ts';

export interface EventMeta {
  source: string;
  correlationId?: string;
}

/**
 * Adds an event to the outbox of `em`'s unit of work: it is committed by the same flush (or
 * transaction) as the change it reports, and published by the relay afterwards.
 */
export function recordEvent<T extends EventType>(em: EntityManager, type: T, data: EventData<T>, meta: EventMeta): EventEnvelope {
  const envelope: EventEnvelope = {
    id: randomUUID(),
    type,
    version: EVENT_VERSION,
    occurredAt: new Date().toISOString(),
    source: meta.source,
    correlationId: meta.correlationId ?? randomUUID(),
    data: eventSchemas[type].parse(data),
  };
  em.create(OutboxMessage, { eventId: envelope.id, type, envelope: envelope as unknown as Record<string, unknown> });
  return envelope;
}
