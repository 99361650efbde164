import { defineEntity, p } from '@mikro-orm/postgresql';

/** A push send with an idempotencyKey: a retry answers `response` instead of sending again. */
export const PushSend = defineEntity({
  name: 'PushSend',
  tableName: 'push_sends',
  properties: {
    idempotencyKey: p.string().length(200).primary(),
    sendId: p.uuid(),
    /** sha256 of the request body: the same key with another body is refused. */
    requestHash: p.string().length(64),
    /** Null while the first send is in progress. */
    response: p.json<Record<string, unknown>>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()).index(),
  },
});

/** What the recording provider would have sent (no Firebase credentials): one row per chunk. */
export const RecordedPush = defineEntity({
  name: 'RecordedPush',
  tableName: 'recorded_pushes',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    /** The FCM multicast message without its tokens. */
    message: p.json<Record<string, unknown>>(),
    tokens: p.json<string[]>(),
    tokenCount: p.integer(),
    createdAt: p.datetime().onCreate(() => new Date()).index(),
  },
});
