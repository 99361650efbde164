import { defineEntity, p } from '@mikro-orm/postgresql';
import { DELIVERY_CHANNELS, DELIVERY_STATUSES, PUSH_PLATFORMS } from '@academy/contracts';
import { preferencesEntities } from '../preferences/preferences.entities.ts';

/** One push token per (user, device); a token belongs to one user at a time. */
export const DeviceToken = defineEntity({
  name: 'DeviceToken',
  tableName: 'device_tokens',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer(),
    deviceId: p.string().length(200),
    token: p.text().unique(),
    platform: p.enum(PUSH_PLATFORMS),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()),
    /** Registered again or sent to successfully; tokens unseen for TOKEN_RETENTION_DAYS are pruned. */
    lastSeenAt: p.datetime().onCreate(() => new Date()).index(),
  },
  uniques: [{ properties: ['userId', 'deviceId'] }],
});

/**
 * One side effect outside the database: an e-mail to one recipient, or a push to one user's
 * devices. Written before it is attempted, unique per (event, recipient, channel), so a redelivered
 * event never sends twice; failed e-mails are retried from here with backoff, then parked.
 */
export const Delivery = defineEntity({
  name: 'Delivery',
  tableName: 'deliveries',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    /** The event id, or the push send's id. */
    eventId: p.string().length(100),
    eventType: p.string().length(100),
    channel: p.enum(DELIVERY_CHANNELS),
    /** An e-mail address, or `user:<id>` for a push. */
    recipient: p.string().length(320),
    userId: p.integer().nullable(),
    template: p.string().length(100).nullable(),
    subject: p.text().nullable(),
    /** The rendered e-mail (to, subject, html, text), kept until it is sent. */
    payload: p.json<Record<string, unknown>>().nullable(),
    /** Push: token counts of the send. */
    detail: p.json<Record<string, unknown>>().nullable(),
    status: p.enum(DELIVERY_STATUSES),
    attempts: p.integer().default(0),
    lastError: p.text().nullable(),
    nextAttemptAt: p.datetime().nullable(),
    sentAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ name: 'deliveries_event_recipient_channel_unique', properties: ['eventId', 'recipient', 'channel'] }],
  indexes: [{ properties: ['status', 'nextAttemptAt'] }, { properties: ['createdAt'] }, { properties: ['userId'] }],
});

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

/** Every MikroORM entity of this service (the outbox and inbox come from @academy/messaging). */
export const entities = [DeviceToken, Delivery, PushSend, RecordedPush, ...preferencesEntities];
