import { createHash, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PushSendBody, PushSendError, PushSendResponse } from '@academy/contracts';
import { pgArray } from '@academy/db';
import { inSpan, SpanKind } from '@academy/kit';
import { idempotencyKeyInProgress, idempotencyKeyReused } from '../notifications.errors.ts';
import { isOptional, notificationTypeOf } from './notification-types.ts';
import { switchedOff } from './preferences.store.ts';
import { inQuietHours } from './quiet-hours.ts';
import { holdPushes } from './held-pushes.ts';
import { DEAD_TOKEN_CODES, type PushProvider } from './push-provider.ts';

interface TokenRow {
  user_id: number;
  device_id: string;
  token: string;
}

interface StoredKeyRow {
  fingerprint: string;
  status: number;
  body: string;
}

/** A send whose first attempt died half-way (process killed) may be taken over after this long. */
const IN_PROGRESS_TAKEOVER = '2 minutes';

// A send's key lives in the service's one idempotency table (`idempotency_keys` of @academy/service,
// which also holds the keys of its HTTP writes): scope `push:send`, its body's hash as the
// fingerprint, status 202 with the send's id as body while the send runs, 200 with its answer once
// done. It expires after 7 days and is pruned with every other key (the service's 15-minute prune).
const PUSH_SEND_SCOPE = 'push:send';
const SENDING = 202;
const SENT = 200;
const KEY_DAYS = 7;

export interface SendPushOptions {
  /** Recorded on the deliveries rows: `push.send` for the API, the event type when an event caused it. */
  eventType?: string;
  /** The service clock's now: with an optional `eventType`, a recipient in their quiet hours gets the push held until they end. */
  now?: Date;
  /** The held-push sender's own send (the quiet hours are over): not held again. */
  quietHoursChecked?: boolean;
}

/**
 * The one way a push goes out (spec, Events 4): the stored tokens of `userIds` (of `platform`), one
 * provider call per 500 tokens, counts per token. Tokens FCM reports dead are deleted; tokens that
 * succeed are marked seen. One deliveries row per user says what happened. With an
 * idempotencyKey, a retry answers the first result and sends nothing.
 */
export async function sendPush(em: EntityManager, provider: PushProvider, input: PushSendBody, options: SendPushOptions = {}): Promise<PushSendResponse> {
  const requestedUserIds = [...new Set(input.userIds)];
  let sendId: string = randomUUID();

  if (input.idempotencyKey) {
    const claim = await claimIdempotencyKey(em, input, sendId);
    if ('response' in claim) return claim.response;
    sendId = claim.sendId;
  }

  const skippedUserIds = await switchedOffUsers(em, requestedUserIds, options.eventType);
  if (skippedUserIds.length) await recordSkipped(em, sendId, options.eventType!, input, skippedUserIds);
  const allowed = requestedUserIds.filter((userId) => !skippedUserIds.includes(userId));
  const held = options.now && !options.quietHoursChecked && options.eventType && isOptional(options.eventType) ? await inQuietHours(em, allowed, options.now) : new Map<number, Date>();
  if (held.size) {
    const { userIds: _userIds, idempotencyKey: _key, ...message } = input;
    await holdPushes(em, options.eventType!, message, held, options.now!);
  }
  const recipients = allowed.filter((userId) => !held.has(userId));

  const tokens = await em.execute<TokenRow[]>(
    `select user_id, device_id, token from device_tokens where user_id = any(?::int[])${input.platform ? ' and platform = ?' : ''} order by user_id, id`,
    input.platform ? [pgArray(recipients), input.platform] : [pgArray(recipients)],
    'all',
  );

  const outcomes = tokens.length
    ? await inSpan('push send', { kind: SpanKind.CLIENT, attributes: { 'academy.push.tokens': tokens.length, 'academy.push.users': recipients.length } }, () =>
        provider.send({ title: input.title, body: input.body, priority: input.priority, channelId: input.channelId, data: input.data }, tokens.map((row) => row.token)),
      )
    : [];

  const errors: PushSendError[] = [];
  const seen: string[] = [];
  const dead: string[] = [];
  const perUser = new Map<number, { tokens: number; success: number; errors: number; lastError: string | null; codes: Set<string> }>();
  tokens.forEach((row, index) => {
    const outcome = outcomes[index];
    const user = perUser.get(row.user_id) ?? { tokens: 0, success: 0, errors: 0, lastError: null, codes: new Set<string>() };
    perUser.set(row.user_id, user);
    user.tokens++;
    if (outcome.ok) {
      user.success++;
      seen.push(row.token);
      return;
    }
    user.errors++;
    user.lastError = `${outcome.code}: ${outcome.message}`;
    user.codes.add(outcome.code);
    errors.push({ userId: row.user_id, deviceId: row.device_id, code: outcome.code, message: outcome.message });
    if (DEAD_TOKEN_CODES.has(outcome.code)) dead.push(row.token);
  });

  if (dead.length) await em.execute(`delete from device_tokens where token = any(?::text[])`, [pgArray(dead)], 'run');
  // A day's precision is plenty for a 270-day retention, and spares rewriting every row on each send.
  if (seen.length) {
    await em.execute(`update device_tokens set last_seen_at = now() where token = any(?::text[]) and last_seen_at < now() - interval '1 day'`, [pgArray(seen)], 'run');
  }
  if (perUser.size) {
    const rows = [...perUser];
    const statusOf = (user: { success: number }) => (user.success === 0 ? 'failed' : provider.kind === 'recording' ? 'recorded' : 'sent');
    await em.execute(
      `insert into deliveries (event_id, event_type, channel, recipient, user_id, subject, detail, status, attempts, last_error, sent_at, created_at, updated_at)
       values ${rows.map(() => `(?, ?, 'push', ?, ?, ?, ?, ?, 1, ?, now(), now(), now())`).join(', ')}
       on conflict (event_id, recipient, channel) do nothing`,
      rows.flatMap(([userId, user]) => [
        sendId,
        options.eventType ?? 'push.send',
        `user:${userId}`,
        userId,
        input.title ?? input.body.slice(0, 200),
        JSON.stringify({ provider: provider.kind, tokens: user.tokens, success: user.success, errors: user.errors, codes: [...user.codes] }),
        statusOf(user),
        user.lastError,
      ]),
      'run',
    );
  }

  const successCount = outcomes.filter((outcome) => outcome.ok).length;
  const response: PushSendResponse = {
    // false only when tokens existed and none of them took the message
    success: tokens.length === 0 || successCount > 0,
    requestedUserIds,
    tokensCount: tokens.length,
    successCount,
    errorCount: errors.length,
    errors,
  };
  if (input.idempotencyKey) {
    await em.execute(
      `update idempotency_keys set status = ?, content_type = 'application/json', body = ? where scope = ? and key = ?`,
      [SENT, JSON.stringify(response), PUSH_SEND_SCOPE, input.idempotencyKey],
      'run',
    );
  }
  return response;
}

/** Of the users, those who switched this event's type off for push (none for a critical type or a direct send). */
async function switchedOffUsers(em: EntityManager, userIds: number[], eventType: string | undefined): Promise<number[]> {
  if (!eventType || !isOptional(eventType) || !userIds.length) return [];
  const type = notificationTypeOf(eventType)!;
  const off = await switchedOff(em, 'push', userIds.map((userId) => ({ userId, type })));
  return userIds.filter((userId) => off.has(`${userId}:${type}`));
}

/** A push held back by its recipient's preference is recorded as `skipped`, not dropped silently. */
async function recordSkipped(em: EntityManager, sendId: string, eventType: string, input: PushSendBody, userIds: number[]): Promise<void> {
  await em.execute(
    `insert into deliveries (event_id, event_type, channel, recipient, user_id, subject, detail, status, attempts, last_error, created_at, updated_at)
     values ${userIds.map(() => `(?, ?, 'push', ?, ?, ?, ?, 'skipped', 0, 'switched off by its recipient (push preference)', now(), now())`).join(', ')}
     on conflict (event_id, recipient, channel) do nothing`,
    userIds.flatMap((userId) => [sendId, eventType, `user:${userId}`, userId, input.title ?? input.body.slice(0, 200), JSON.stringify({ reason: 'preference' })]),
    'run',
  );
}

/** Inserts the key (first send), or answers the stored result of an earlier send with the same body. */
async function claimIdempotencyKey(em: EntityManager, input: PushSendBody, sendId: string): Promise<{ sendId: string } | { response: PushSendResponse }> {
  const { idempotencyKey: key, ...body } = input;
  const requestHash = createHash('sha256').update(JSON.stringify(body)).digest('hex');
  // A key past its time that the prune has not reached yet is claimed as new.
  const inserted = await em.execute<{ body: string }[]>(
    `insert into idempotency_keys as k (scope, key, fingerprint, status, content_type, body, created_at, expires_at)
     values (?, ?, ?, ?, null, ?, now(), now() + make_interval(days => ?))
     on conflict (scope, key) do update set fingerprint = excluded.fingerprint, status = excluded.status, content_type = null, body = excluded.body,
       created_at = excluded.created_at, expires_at = excluded.expires_at
     where k.expires_at <= now()
     returning body`,
    [PUSH_SEND_SCOPE, key, requestHash, SENDING, sendId, KEY_DAYS],
    'all',
  );
  if (inserted.length) return { sendId };
  const [existing] = await em.execute<StoredKeyRow[]>(`select fingerprint, status, body from idempotency_keys where scope = ? and key = ?`, [PUSH_SEND_SCOPE, key], 'all');
  if (!existing) return claimIdempotencyKey(em, input, sendId); // pruned between the two statements
  if (existing.fingerprint !== requestHash) throw idempotencyKeyReused();
  if (existing.status === SENT) return { response: JSON.parse(existing.body) as PushSendResponse };
  const [takenOver] = await em.execute<{ body: string }[]>(
    `update idempotency_keys set created_at = now() where scope = ? and key = ? and status = ? and created_at < now() - interval '${IN_PROGRESS_TAKEOVER}' returning body`,
    [PUSH_SEND_SCOPE, key, SENDING],
    'all',
  );
  if (!takenOver) throw idempotencyKeyInProgress();
  return { sendId: takenOver.body };
}
