import type { EntityManager } from '@mikro-orm/postgresql';
import { createEnvelope, type EventData, type EventEnvelope, type EventType, type TypedEnvelope } from '@academy/contracts';
import { currentTraceCarrier } from '@academy/kit';
import { OutboxMessage } from './entities.ts';

export interface EventMeta {
  source: string;
  correlationId?: string;
  /** Twins of one change at two versions (`alsoPublishes`) share one `occurredAt` and each name their `version`. */
  occurredAt?: Date;
  version?: number;
}

/**
 * Adds an event to the outbox of `em`'s unit of work: it is committed by the same flush (or
 * transaction) as the change it reports, and published by the relay afterwards. `data` is validated
 * against its type's schema here, so an invalid event fails the use case, not the consumer. The
 * active trace context (the request's) is stored with the row: the consumer's span continues it.
 */
export function recordEvent<T extends EventType>(em: EntityManager, type: T, data: EventData<T>, meta: EventMeta): TypedEnvelope<T> {
  const envelope = createEnvelope(type, data, meta);
  em.create(OutboxMessage, { eventId: envelope.id, type, envelope: envelope as unknown as Record<string, unknown>, traceContext: currentTraceCarrier() });
  return envelope;
}

/** The columns an SQL insert into the outbox writes, in order; the others (id, published_at, last_error) keep their defaults. */
export const OUTBOX_INSERT_COLUMNS = ['event_id', 'type', 'envelope', 'trace_context', 'created_at', 'available_at', 'attempts'] as const;

/** SQL expressions giving an outbox row's values: placeholders, or expressions over the statement's own rows. */
export interface OutboxRowSql {
  eventId: string;
  type: string;
  envelope: string;
  /** The writer's trace context as jsonb: `outboxRow`'s fourth parameter (`$n::jsonb`), null when untraced. */
  traceContext: string;
}

/**
 * `insert into outbox (…) select <eventId>, <type>, <envelope>, now(), now(), 0`, for a statement that
 * writes its change and the change's event at once: append `from <cte>` to insert a row only when the
 * change happened. The placeholders default to `?` in the order of `outboxRow(envelope)`. The times
 * are the database's: a pinned clock must not hold an event back from the relay.
 */
export function outboxInsertSql(row: OutboxRowSql = { eventId: '?::uuid', type: '?::text', envelope: '?::jsonb', traceContext: '?::jsonb' }): string {
  return `insert into outbox (${OUTBOX_INSERT_COLUMNS.join(', ')}) select ${row.eventId}, ${row.type}, ${row.envelope}, ${row.traceContext}, now(), now(), 0`;
}

/** An envelope's parameters for `outboxInsertSql`: event id, type, envelope as JSON, and the active trace context as JSON (or null). */
export function outboxRow(envelope: EventEnvelope): [eventId: string, type: string, envelope: string, traceContext: string | null] {
  const carrier = currentTraceCarrier();
  return [envelope.id, envelope.type, JSON.stringify(envelope), carrier && JSON.stringify(carrier)];
}
