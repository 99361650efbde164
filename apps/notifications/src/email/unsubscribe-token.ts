// The guardians' unsubscribe link: a token that names one notification type and one address and
// expires, signed with HMAC-SHA256 (UNSUBSCRIBE_SECRET): `<payload>.<signature>`, both base64url,
// the payload `{ t: type, a: address, e: expiry in Unix seconds }`. Nothing is stored until it is used.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { NOTIFICATION_TYPES, type NotificationType } from '@academy/contracts';
import { isCritical } from '../shared/notification-types.ts';

export interface UnsubscribeClaim {
  type: NotificationType;
  address: string;
  expiresAt: Date;
}

/** Why a token was refused (the page says it in a sentence; the log keeps the reason). */
export type TokenRefusal = 'malformed' | 'forged' | 'expired' | 'unknown-type';

const sign = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');

export function unsubscribeToken(secret: string, claim: UnsubscribeClaim): string {
  const payload = Buffer.from(JSON.stringify({ t: claim.type, a: claim.address.toLowerCase(), e: Math.floor(claim.expiresAt.getTime() / 1000) })).toString('base64url');
  return `${payload}.${sign(secret, payload)}`;
}

/** The claim of a token signed with `secret` and not expired at `now`, or why not. */
export function readUnsubscribeToken(secret: string, token: string, now: Date): { ok: true; claim: UnsubscribeClaim } | { ok: false; reason: TokenRefusal } {
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length || !/^[\w-]+$/.test(payload) || !/^[\w-]+$/.test(signature)) return { ok: false, reason: 'malformed' };
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'forged' };
  let body: { t?: unknown; a?: unknown; e?: unknown };
  try {
    body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof body;
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (typeof body.a !== 'string' || !body.a || typeof body.e !== 'number') return { ok: false, reason: 'malformed' };
  const type = NOTIFICATION_TYPES.find((known) => known === body.t);
  if (!type || isCritical(type)) return { ok: false, reason: 'unknown-type' };
  if (body.e * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, claim: { type, address: body.a, expiresAt: new Date(body.e * 1000) } };
}
