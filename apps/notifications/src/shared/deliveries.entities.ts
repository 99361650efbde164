import { defineEntity, p } from '@mikro-orm/postgresql';
import { DELIVERY_CHANNELS, DELIVERY_STATUSES } from '@academy/contracts';

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
