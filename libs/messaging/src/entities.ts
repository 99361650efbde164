import { defineEntity, p } from '@mikro-orm/postgresql';

/** Events waiting to be published, written in the same transaction as the change they report. */
export const OutboxMessage = defineEntity({
  name: 'OutboxMessage',
  tableName: 'outbox',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    eventId: p.uuid().unique(),
    type: p.string(),
    envelope: p.json<Record<string, unknown>>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    availableAt: p.datetime().onCreate(() => new Date()).index(),
    publishedAt: p.datetime().nullable().index(),
    attempts: p.integer().default(0),
    lastError: p.text().nullable(),
    /** The writer's trace context (W3C `traceparent`, `tracestate`), published as the message's headers; null when untraced. */
    traceContext: p.json<Record<string, string>>().nullable(),
  },
});

/** Ids of events a consumer has handled: the handler's work and this row commit together. */
export const InboxMessage = defineEntity({
  name: 'InboxMessage',
  tableName: 'inbox',
  properties: {
    eventId: p.uuid().primary(),
    consumer: p.string().primary(),
    type: p.string(),
    processedAt: p.datetime().onCreate(() => new Date()),
  },
});

export const messagingEntities = [OutboxMessage, InboxMessage];
