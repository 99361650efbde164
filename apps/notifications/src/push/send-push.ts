import { createHash, randomUUID } from 'node:crypto';
import type { PushSendBody, PushSendError, PushSendResponse } from '@academy/contracts';
import { inSpan, SpanKind } from '@academy/kit';
import type { NotificationsContext } from '../notifications-context.ts';
import { idempotencyKeyInProgress, idempotencyKeyReused } from '../notifications.errors.ts';
import { isOptional, notificationTypeOf } from '../shared/notification-types.ts';
import type { SendPushInput } from '../shared/push-message.ts';
import { DEAD_TOKEN_CODES } from './push-provider.ts';
import {
  SENT,
  completeSendKey,
  deleteTokens,
  holdPushes,
  inQuietHours,
  insertSendKey,
  markTokensSeen,
  readSendKey,
  recordPushDeliveries,
  recordSkippedPushes,
  switchedOffForPush,
  takeOverSendKey,
  tokensOf,
  type PushDelivery,
} from './push.store.ts';

/**
 * The one way a push goes out (spec, Events 4): the stored tokens of `userIds` (of `platform`), one
 * provider call per 500 tokens, counts per token. Tokens FCM reports dead are deleted; tokens that
 * succeed are marked seen. One deliveries row per user says what happened. With an idempotencyKey,
 * a retry answers the first result and sends nothing. No person calls it (an API key, an event, the
 * held-push sender): `(ctx, input)`. It runs on `ctx.orm.em`: the request's, or the event handler's
 * transaction (its records commit with the inbox row, on the handler's one connection).
 */
export async function sendPush(ctx: NotificationsContext, input: SendPushInput): Promise<PushSendResponse> {
  const em = ctx.orm.em;
  const { message, eventType } = input;
  const requestedUserIds = [...new Set(message.userIds)];
  let sendId: string = randomUUID();

  if (message.idempotencyKey) {
    const claim = await claimIdempotencyKey(ctx, message, sendId);
    if ('response' in claim) return claim.response;
    sendId = claim.sendId;
  }
  const record = { sendId, eventType: eventType ?? 'push.send', subject: message.title ?? message.body.slice(0, 200) };

  const optionalType = eventType && isOptional(eventType) ? notificationTypeOf(eventType)! : null;
  const skippedUserIds = optionalType && requestedUserIds.length ? await switchedOffForPush(em, requestedUserIds, optionalType) : [];
  await recordSkippedPushes(em, record, skippedUserIds);
  const allowed = requestedUserIds.filter((userId) => !skippedUserIds.includes(userId));
  const now = ctx.clock.now();
  const held = optionalType && !input.quietHoursChecked ? await inQuietHours(em, allowed, now) : new Map<number, Date>();
  if (held.size) {
    const { userIds: _userIds, idempotencyKey: _key, ...heldMessage } = message;
    await holdPushes(em, eventType!, heldMessage, held, now);
  }
  const recipients = allowed.filter((userId) => !held.has(userId));

  const tokens = await tokensOf(em, recipients, message.platform);
  const outcomes = tokens.length
    ? await inSpan('push send', { kind: SpanKind.CLIENT, attributes: { 'academy.push.tokens': tokens.length, 'academy.push.users': recipients.length } }, () =>
        ctx.push.send({ title: message.title, body: message.body, priority: message.priority, channelId: message.channelId, data: message.data }, tokens.map((row) => row.token)),
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

  await deleteTokens(em, dead);
  await markTokensSeen(em, seen);
  const deliveries: PushDelivery[] = [...perUser].map(([userId, user]) => ({
    userId,
    status: user.success === 0 ? 'failed' : ctx.push.kind === 'recording' ? 'recorded' : 'sent',
    detail: { provider: ctx.push.kind, tokens: user.tokens, success: user.success, errors: user.errors, codes: [...user.codes] },
    lastError: user.lastError,
  }));
  await recordPushDeliveries(em, record, deliveries);

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
  if (message.idempotencyKey) await completeSendKey(em, message.idempotencyKey, response);
  return response;
}

/** Inserts the key (first send), or answers the stored result of an earlier send with the same body. */
async function claimIdempotencyKey(ctx: NotificationsContext, message: PushSendBody, sendId: string): Promise<{ sendId: string } | { response: PushSendResponse }> {
  const { idempotencyKey: key, ...body } = message;
  const fingerprint = createHash('sha256').update(JSON.stringify(body)).digest('hex');
  if (await insertSendKey(ctx.orm.em, key!, fingerprint, sendId)) return { sendId };
  const existing = await readSendKey(ctx.orm.em, key!);
  if (!existing) return claimIdempotencyKey(ctx, message, sendId); // pruned between the two statements
  if (existing.fingerprint !== fingerprint) throw idempotencyKeyReused();
  if (existing.status === SENT) return { response: JSON.parse(existing.body) as PushSendResponse };
  const takenOver = await takeOverSendKey(ctx.orm.em, key!);
  if (!takenOver) throw idempotencyKeyInProgress();
  return { sendId: takenOver };
}
