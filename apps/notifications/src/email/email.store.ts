import type { EntityManager } from '@mikro-orm/postgresql';
import { eventSchemas } from '@academy/contracts';
import { pgArray } from '@academy/db';
import type { TraceCarrier } from '@academy/kit';
import { isOptional, notificationTypeOf } from '../shared/notification-types.ts';

// The mail worker's SQL on the `deliveries` table: claiming due e-mails, and recording each outcome.

export interface ClaimedMail {
  id: string;
  recipient: string;
  event_type: string;
  user_id: number | null;
  attempts: number;
  payload: { to: string; subject: string; html: string; text: string; unsubscribe?: string; trace?: TraceCarrier };
  /** Its recipient's login switched its type off by e-mail (read with the claim; never for a critical type). */
  switched_off: boolean;
  /** Its address is unsubscribed from its type (a guardian's link; read with the claim; never for a critical type). */
  unsubscribed: boolean;
}

/** A claimed row whose process died while sending is tried again after this lease. */
const SENDING_LEASE = '5 minutes';

/** The event types whose mails a preference may hold back, and their notification types, side by side (critical ones are absent). */
const OPTIONAL_EVENT_TYPES = Object.keys(eventSchemas).filter(isOptional);
const OPTIONAL_TYPES = OPTIONAL_EVENT_TYPES.map((eventType) => notificationTypeOf(eventType)!);

/**
 * Claims up to `batchSize` due e-mails with `FOR UPDATE SKIP LOCKED` (several instances never take
 * the same row), marked `sending` with a lease, and in the same statement reads the preference check
 * of each (at send time, for every sender's mails alike): whether its recipient's login switched its
 * type off by e-mail, and whether its address is unsubscribed from its type. Primary-key probes, and
 * none for a critical type; no round trip of its own (bench:notifications measures what it adds).
 */
export function claimDueMails(em: EntityManager, batchSize: number): Promise<ClaimedMail[]> {
  return em.getConnection().execute<ClaimedMail[]>(
    `with claimed as (
       update deliveries set status = 'sending', attempts = attempts + 1, next_attempt_at = now() + interval '${SENDING_LEASE}', updated_at = now()
        where id in (select id from deliveries where channel = 'email' and status in ('pending', 'sending') and next_attempt_at <= now()
                     order by next_attempt_at limit ? for update skip locked)
       returning id, recipient, event_type, user_id, attempts, payload
     ), optional as (select * from unnest(?::text[], ?::text[]) as o(event_type, type))
     select c.*,
            exists (select 1 from optional o join notification_preferences p on p.user_id = c.user_id and p.type = o.type and p.channel = 'email' and not p.enabled
                     where o.event_type = c.event_type) as switched_off,
            exists (select 1 from optional o join email_unsubscribes u on u.recipient = c.recipient and u.type = o.type
                     where o.event_type = c.event_type) as unsubscribed
       from claimed c`,
    [batchSize, pgArray(OPTIONAL_EVENT_TYPES), pgArray(OPTIONAL_TYPES)],
    'all',
  );
}

/** What became of a claimed mail: sent; failed or parked for good; or pending again after `delayMs`. */
export type MailOutcome = { status: 'sent' } | { status: 'failed' | 'parked'; reason: string } | { status: 'pending'; reason: string; delayMs: number };

export async function markMail(em: EntityManager, id: string, outcome: MailOutcome): Promise<void> {
  const connection = em.getConnection();
  if (outcome.status === 'sent') {
    await connection.execute(`update deliveries set status = 'sent', sent_at = now(), next_attempt_at = null, updated_at = now() where id = ?`, [id], 'run');
  } else if (outcome.status === 'pending') {
    await connection.execute(
      `update deliveries set status = 'pending', last_error = ?, next_attempt_at = now() + make_interval(secs => ?), updated_at = now() where id = ?`,
      [outcome.reason, outcome.delayMs / 1000, id],
      'run',
    );
  } else {
    await connection.execute(`update deliveries set status = ?, last_error = ?, next_attempt_at = null, updated_at = now() where id = ?`, [outcome.status, outcome.reason, id], 'run');
  }
}

/** Mails a preference holds back: `skipped`, with the reason, never sent. */
export async function skipMails(em: EntityManager, mails: ClaimedMail[], reason: string): Promise<void> {
  if (!mails.length) return;
  await em.getConnection().execute(
    `update deliveries set status = 'skipped', last_error = ?, next_attempt_at = null, updated_at = now() where id = any(?::bigint[])`,
    [reason, pgArray(mails.map((mail) => mail.id))],
    'run',
  );
}
