import type { EntityManager } from '@mikro-orm/postgresql';
import { eventSchemas, type NotificationType, type OptOut, type OptOutKey, type OptOutsQuery, type PageMeta } from '@academy/contracts';
import { pgArray } from '@academy/db';
import { currentTraceCarrier, pageMeta, type TraceCarrier } from '@academy/kit';
import { isOptional, notificationTypeOf } from '../shared/notification-types.ts';
import { isoSql } from '../shared/sql.ts';

// The e-mail feature's SQL: the mails an event queues (`deliveries` rows of channel `email`), the mail
// worker's claims and outcomes on them, and the guardians' opt-outs (`email_unsubscribes`, one row per
// address and type). The claim reads the preferences feature's table in the same statement, at send time.

/** A mail an event queues: the mail worker sends it. */
export interface QueuedMail {
  to: string;
  userId: number | null;
  role: string;
  template: string;
  subject: string;
  html: string;
  text: string;
  unsubscribe?: string;
}

/**
 * `deliveries` rows written in the event's transaction (`em`, with its inbox row), unique per (event,
 * address, channel): a redelivered event, even on another queue, writes nothing new. Addresses are
 * deduplicated (an admin who is also the guardian gets one). Each carries the trace it was queued in.
 */
export async function queueMails(em: EntityManager, event: { id: string; type: string }, mails: QueuedMail[]): Promise<void> {
  const unique = [...new Map(mails.map((mail) => [mail.to.toLowerCase(), mail])).values()];
  if (unique.length === 0) return;
  await em.getConnection().execute(
    `insert into deliveries (event_id, event_type, channel, recipient, user_id, template, subject, payload, status, attempts, next_attempt_at, created_at, updated_at)
     values ${unique.map(() => `(?, ?, 'email', ?, ?, ?, ?, ?, 'pending', 0, now(), now(), now())`).join(', ')}
     on conflict (event_id, recipient, channel) do nothing`,
    unique.flatMap((mail) => [
      event.id,
      event.type,
      mail.to.toLowerCase(),
      mail.userId,
      mail.template,
      mail.subject,
      JSON.stringify({ to: mail.to, role: mail.role, subject: mail.subject, html: mail.html, text: mail.text, unsubscribe: mail.unsubscribe, trace: currentTraceCarrier() ?? undefined }),
    ]),
    'run',
    em.getTransactionContext(),
  );
}

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

/** Whether the address is unsubscribed from the type. */
export async function isUnsubscribed(em: EntityManager, address: string, type: NotificationType): Promise<boolean> {
  const rows = await em.getConnection().execute<unknown[]>(`select 1 from email_unsubscribes where recipient = ? and type = ?`, [address, type], 'all');
  return rows.length > 0;
}

/** Records the address's opt-out from the type; false when it was there already. */
export async function insertUnsubscribe(em: EntityManager, address: string, type: NotificationType, now: Date): Promise<boolean> {
  const inserted = await em
    .getConnection()
    .execute<unknown[]>(`insert into email_unsubscribes (recipient, type, created_at) values (?, ?, ?) on conflict do nothing returning recipient`, [address, type, now], 'all');
  return inserted.length > 0;
}

interface OptOutRow {
  recipient: string;
  type: NotificationType;
  created_at: Date;
  total: string;
}
const optOut = (row: Omit<OptOutRow, 'total'>): OptOut => ({ recipient: row.recipient, type: row.type, createdAt: new Date(row.created_at).toISOString() });

/** The recorded opt-outs, newest first, one page and the total in one query. */
export async function listOptOutRows(em: EntityManager, query: OptOutsQuery): Promise<{ data: OptOut[]; meta: PageMeta }> {
  const where: string[] = [];
  const params: unknown[] = [];
  const filter = (condition: string, value: unknown) => {
    where.push(condition);
    params.push(value);
  };
  if (query.recipient) filter('recipient = ?', query.recipient.trim().toLowerCase());
  if (query.type) filter('type = ?', query.type);
  const condition = where.length ? `where ${where.join(' and ')}` : '';
  const rows = await em
    .getConnection()
    .execute<OptOutRow[]>(`select recipient, type, created_at, count(*) over () as total from email_unsubscribes ${condition} order by created_at desc, recipient, type limit ? offset ?`, [
      ...params,
      query.limit,
      (query.page - 1) * query.limit,
    ], 'all', em.getTransactionContext());
  // A page past the end has no row to carry the total.
  const total = rows.length
    ? Number(rows[0]!.total)
    : Number((await em.getConnection().execute<{ total: string }[]>(`select count(*) as total from email_unsubscribes ${condition}`, params, 'all', em.getTransactionContext()))[0]!.total);
  return { data: rows.map(optOut), meta: pageMeta(total, query.page, query.limit) };
}

/** Deletes one opt-out; what it was, or undefined when there was none. */
export async function deleteOptOut(em: EntityManager, key: OptOutKey): Promise<OptOut | undefined> {
  const [removed] = await em
    .getConnection()
    .execute<Omit<OptOutRow, 'total'>[]>(`delete from email_unsubscribes where recipient = ? and type = ? returning recipient, type, created_at`, [key.recipient.trim().toLowerCase(), key.type], 'all', em.getTransactionContext());
  return removed ? optOut(removed) : undefined;
}

/** The address's opt-outs, for a personal data export. */
export function optOutsOfAddress(em: EntityManager, address: string) {
  return em.execute<{ type: NotificationType; createdAt: string }[]>(`select type, ${isoSql('created_at')} as "createdAt" from email_unsubscribes where recipient = lower(?) order by created_at`, [address], 'all');
}

/** Deletes the address's opt-outs (an erasure); how many. */
export async function deleteOptOutsOfAddress(em: EntityManager, address: string): Promise<number> {
  const result = await em.execute<{ affectedRows: number }>(`delete from email_unsubscribes where recipient = lower(?)`, [address], 'run');
  return result.affectedRows;
}
