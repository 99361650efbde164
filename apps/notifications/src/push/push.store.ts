import type { EntityManager } from '@mikro-orm/postgresql';
import pg from 'pg';
import type { NotificationType, PushSendBody } from '@academy/contracts';
import { pgArray } from '@academy/db';
import { isoSql } from '../shared/sql.ts';

// The push feature's SQL: the tokens a send goes to (and what FCM said of them), its `deliveries`
// rows, its idempotency key, the pushes held for quiet hours, and what the recording provider stores.
// It reads the preferences feature's tables (switched off, quiet hours) in its own statements, at send time.

export interface TokenRow {
  user_id: number;
  device_id: string;
  token: string;
}

/** The stored tokens of the users (of one platform when given), in a stable order. */
export const tokensOf = (em: EntityManager, userIds: number[], platform: PushSendBody['platform']) =>
  em.execute<TokenRow[]>(
    `select user_id, device_id, token from device_tokens where user_id = any(?::int[])${platform ? ' and platform = ?' : ''} order by user_id, id`,
    platform ? [pgArray(userIds), platform] : [pgArray(userIds)],
    'all',
  );

/** Tokens FCM reported dead. */
export async function deleteTokens(em: EntityManager, tokens: string[]): Promise<void> {
  if (tokens.length) await em.execute(`delete from device_tokens where token = any(?::text[])`, [pgArray(tokens)], 'run');
}

/** Tokens FCM took a message for. A day's precision is plenty for a 270-day retention, and spares rewriting every row on each send. */
export async function markTokensSeen(em: EntityManager, tokens: string[]): Promise<void> {
  if (tokens.length) await em.execute(`update device_tokens set last_seen_at = now() where token = any(?::text[]) and last_seen_at < now() - interval '1 day'`, [pgArray(tokens)], 'run');
}

/** What one send did for one user: the `deliveries` row of the push. */
export interface PushDelivery {
  userId: number;
  status: 'sent' | 'recorded' | 'failed';
  detail: Record<string, unknown>;
  lastError: string | null;
}

/** Who the push is about: its send (the `event_id` of its rows), the event type, the subject shown in the listing. */
export interface PushRecord {
  sendId: string;
  eventType: string;
  subject: string;
}

/** One `deliveries` row per user of the send (`channel: push`); a row already there for (send, user) is kept. */
export async function recordPushDeliveries(em: EntityManager, send: PushRecord, deliveries: PushDelivery[]): Promise<void> {
  if (!deliveries.length) return;
  await em.execute(
    `insert into deliveries (event_id, event_type, channel, recipient, user_id, subject, detail, status, attempts, last_error, sent_at, created_at, updated_at)
     values ${deliveries.map(() => `(?, ?, 'push', ?, ?, ?, ?, ?, 1, ?, now(), now(), now())`).join(', ')}
     on conflict (event_id, recipient, channel) do nothing`,
    deliveries.flatMap((delivery) => [send.sendId, send.eventType, `user:${delivery.userId}`, delivery.userId, send.subject, JSON.stringify(delivery.detail), delivery.status, delivery.lastError]),
    'run',
  );
}

/** A push held back by its recipients' preference is recorded as `skipped`, not dropped silently. */
export async function recordSkippedPushes(em: EntityManager, send: PushRecord, userIds: number[]): Promise<void> {
  if (!userIds.length) return;
  await em.execute(
    `insert into deliveries (event_id, event_type, channel, recipient, user_id, subject, detail, status, attempts, last_error, created_at, updated_at)
     values ${userIds.map(() => `(?, ?, 'push', ?, ?, ?, ?, 'skipped', 0, 'switched off by its recipient (push preference)', now(), now())`).join(', ')}
     on conflict (event_id, recipient, channel) do nothing`,
    userIds.flatMap((userId) => [send.sendId, send.eventType, `user:${userId}`, userId, send.subject, JSON.stringify({ reason: 'preference' })]),
    'run',
  );
}

/** Of the users, those who switched `type` off for push. One read of the primary key. */
export async function switchedOffForPush(em: EntityManager, userIds: number[], type: NotificationType): Promise<number[]> {
  const rows = await em.execute<{ user_id: number }[]>(
    `select user_id from notification_preferences where channel = 'push' and not enabled and type = ? and user_id = any(?::int[])`,
    [type, pgArray(userIds)],
    'all',
  );
  return rows.map((row) => row.user_id);
}

/**
 * Of the users, those in their quiet hours at `now`, each with the instant they end (the next local
 * `end` after `now`, in their zone: PostgreSQL places it, DST included). A span whose start is after
 * its end runs over midnight. One read of the primary key.
 */
export async function inQuietHours(em: EntityManager, userIds: number[], now: Date): Promise<Map<number, Date>> {
  if (!userIds.length) return new Map();
  const rows = await em.execute<{ user_id: number; release_at: Date | string }[]>(
    `with q as (select user_id, start_time, end_time, time_zone, (?::timestamptz at time zone time_zone) as local from quiet_hours where user_id = any(?::int[]))
     select user_id,
            case when ((local::date + end_time) at time zone time_zone) > ?::timestamptz then (local::date + end_time) at time zone time_zone
                 else ((local::date + 1 + end_time) at time zone time_zone) end as release_at
       from q
      where case when start_time < end_time then local::time >= start_time and local::time < end_time
                 else local::time >= start_time or local::time < end_time end`,
    [now, pgArray(userIds), now],
    'all',
  );
  return new Map(rows.map((row) => [row.user_id, new Date(row.release_at)]));
}

export type HeldMessage = Omit<PushSendBody, 'userIds' | 'idempotencyKey'>;

/** Holds `message` for each user until their quiet hours end (`releaseAt` per user). */
export async function holdPushes(em: EntityManager, eventType: string, message: HeldMessage, releaseAt: Map<number, Date>, now: Date): Promise<void> {
  if (!releaseAt.size) return;
  const rows = [...releaseAt];
  await em.execute(
    `insert into held_pushes (user_id, event_type, message, release_at, created_at) values ${rows.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
    rows.flatMap(([userId, at]) => [userId, eventType, JSON.stringify(message), at, now]),
    'run',
  );
}

export interface HeldPush {
  id: string;
  user_id: number;
  event_type: string;
  message: HeldMessage;
}

/**
 * Claims up to `batch` held pushes due at `now` (`FOR UPDATE SKIP LOCKED`: another instance skips
 * them) in a transaction of its own, kept open while `send` sends each, and marks them sent when it
 * commits. `send` runs outside that transaction (no TransactionContext is opened): each send commits as it goes.
 */
export async function sendDueHeldPushes(em: EntityManager, now: Date, batch: number, send: (held: HeldPush) => Promise<void>): Promise<number> {
  const claim = em.fork();
  await claim.begin();
  try {
    const due = await claim.execute<HeldPush[]>(
      `select id, user_id, event_type, message from held_pushes where sent_at is null and release_at <= ? order by release_at, id limit ? for update skip locked`,
      [now, batch],
    );
    for (const held of due) await send(held);
    if (due.length) await claim.execute(`update held_pushes set sent_at = ? where id = any(?::bigint[])`, [now, pgArray(due.map((held) => held.id))]);
    await claim.commit();
    return due.length;
  } catch (error) {
    await claim.rollback();
    throw error;
  }
}

// A send's key lives in the service's one idempotency table (`idempotency_keys` of @academy/service,
// which also holds the keys of its HTTP writes): scope `push:send`, its body's hash as the
// fingerprint, status 202 with the send's id as body while the send runs, 200 with its answer once
// done. It expires after 7 days and is pruned with every other key (the service's 15-minute prune).
const PUSH_SEND_SCOPE = 'push:send';
export const SENDING = 202;
export const SENT = 200;
const KEY_DAYS = 7;
/** A send whose first attempt died half-way (process killed) may be taken over after this long. */
const IN_PROGRESS_TAKEOVER = '2 minutes';

export interface StoredSendKey {
  fingerprint: string;
  status: number;
  body: string;
}

/** Inserts the send's key (a key past its time that the prune has not reached yet is claimed as new); false when a live one is there. */
export async function insertSendKey(em: EntityManager, key: string, fingerprint: string, sendId: string): Promise<boolean> {
  const inserted = await em.execute<{ body: string }[]>(
    `insert into idempotency_keys as k (scope, key, fingerprint, status, content_type, body, created_at, expires_at)
     values (?, ?, ?, ?, null, ?, now(), now() + make_interval(days => ?))
     on conflict (scope, key) do update set fingerprint = excluded.fingerprint, status = excluded.status, content_type = null, body = excluded.body,
       created_at = excluded.created_at, expires_at = excluded.expires_at
     where k.expires_at <= now()
     returning body`,
    [PUSH_SEND_SCOPE, key, fingerprint, SENDING, sendId, KEY_DAYS],
    'all',
  );
  return inserted.length > 0;
}

export async function readSendKey(em: EntityManager, key: string): Promise<StoredSendKey | undefined> {
  const [existing] = await em.execute<StoredSendKey[]>(`select fingerprint, status, body from idempotency_keys where scope = ? and key = ?`, [PUSH_SEND_SCOPE, key], 'all');
  return existing;
}

/** Takes over a send still marked running past the takeover time (its process died); its send id, or undefined. */
export async function takeOverSendKey(em: EntityManager, key: string): Promise<string | undefined> {
  const [takenOver] = await em.execute<{ body: string }[]>(
    `update idempotency_keys set created_at = now() where scope = ? and key = ? and status = ? and created_at < now() - interval '${IN_PROGRESS_TAKEOVER}' returning body`,
    [PUSH_SEND_SCOPE, key, SENDING],
    'all',
  );
  return takenOver?.body;
}

/** Stores the send's answer under its key: a retry with the same body answers it. */
export async function completeSendKey(em: EntityManager, key: string, answer: unknown): Promise<void> {
  await em.execute(`update idempotency_keys set status = ?, content_type = 'application/json', body = ? where scope = ? and key = ?`, [SENT, JSON.stringify(answer), PUSH_SEND_SCOPE, key], 'run');
}

/**
 * The recording provider's table, `recorded_pushes`, written through a small pool of its own: it
 * stands for FCM, outside the service, so it holds none of the service's connections and what it
 * recorded stays recorded whatever the caller's transaction does.
 */
export function recordedPushes(databaseUrl: string): { record(message: object, chunks: string[][]): Promise<void>; close(): Promise<void> } {
  const own = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  own.on('error', () => {}); // an idle connection dropped by the server: the next send opens another
  return {
    async record(message, chunks) {
      let n = 0;
      await own.query(
        `insert into recorded_pushes (message, tokens, token_count, created_at) values ${chunks.map(() => `($${++n}, $${++n}, $${++n}, now())`).join(', ')}`,
        chunks.flatMap((part) => [JSON.stringify(message), JSON.stringify(part), part.length]),
      );
    },
    close: () => own.end(),
  };
}

/** The pushes held for the user's quiet hours (sent or not), for a personal data export. */
export function heldPushesOfUser(em: EntityManager, userId: number) {
  return em.execute<{ eventType: string; title: string | null; body: string; data: Record<string, string> | null; releaseAt: string; sentAt: string | null }[]>(
    `select event_type as "eventType", message->>'title' as title, message->>'body' as body, message->'data' as data, ${isoSql('release_at')} as "releaseAt", ${isoSql('sent_at')} as "sentAt"
       from held_pushes where user_id = ? order by id`,
    [userId],
    'all',
  );
}

/** Deletes the user's held pushes (an erasure: an unsent one is never sent); how many. */
export async function deleteHeldPushesOfUser(em: EntityManager, userId: number): Promise<number> {
  const result = await em.execute<{ affectedRows: number }>(`delete from held_pushes where user_id = ?`, [userId], 'run');
  return result.affectedRows;
}
