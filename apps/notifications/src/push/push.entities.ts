import { defineEntity, p } from '@mikro-orm/postgresql';

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
