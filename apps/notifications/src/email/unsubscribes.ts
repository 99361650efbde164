// Address-level opt-outs: what a guardian's unsubscribe link records (table `email_unsubscribes`,
// one row per address and type), and the mail worker's check of them at send time.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { NotificationType } from '@academy/contracts';
import { pgArray } from '@academy/db';
import { readUnsubscribeToken, unsubscribeToken, type TokenRefusal } from './unsubscribe-token.ts';

export interface UnsubscribeSettings {
  secret: string;
  /** How long a link in a mail stays valid. */
  ttlDays: number;
  /** The page's address as mail readers reach it (through the gateway). */
  pageUrl: string;
}

/** The settings from the service's configuration. */
export const unsubscribeSettings = (config: { UNSUBSCRIBE_SECRET: string; UNSUBSCRIBE_TOKEN_DAYS: number; PUBLIC_API_URL: string }): UnsubscribeSettings => ({
  secret: config.UNSUBSCRIBE_SECRET,
  ttlDays: config.UNSUBSCRIBE_TOKEN_DAYS,
  pageUrl: `${config.PUBLIC_API_URL.replace(/\/+$/, '')}/api/v2/notifications/unsubscribe`,
});

/** The link to put in a mail to `address` about `type`, valid `ttlDays` from `now`. */
export function unsubscribeLink(settings: UnsubscribeSettings, type: NotificationType, address: string, now: Date): string {
  const token = unsubscribeToken(settings.secret, { type, address, expiresAt: new Date(now.getTime() + settings.ttlDays * 86_400_000) });
  return `${settings.pageUrl}?token=${token}`;
}

/** Records the opt-out a valid token names (again: no change). Answers what happened, for the page. */
export async function unsubscribe(em: EntityManager, settings: UnsubscribeSettings, token: string, now: Date): Promise<{ ok: true; type: NotificationType; address: string } | { ok: false; reason: TokenRefusal }> {
  const read = readUnsubscribeToken(settings.secret, token, now);
  if (!read.ok) return read;
  const { type, address } = read.claim;
  await em.getConnection().execute(`insert into email_unsubscribes (recipient, type, created_at) values (?, ?, ?) on conflict do nothing`, [address, type, now], 'run');
  return { ok: true, type, address };
}

/** Of the given (address, type) pairs, those unsubscribed: "address:type" keys. One primary-key read per batch. */
export async function unsubscribed(em: EntityManager, wanted: { recipient: string; type: NotificationType }[]): Promise<Set<string>> {
  if (!wanted.length) return new Set();
  const rows = await em.getConnection().execute<{ recipient: string; type: string }[]>(
    `select recipient, type from email_unsubscribes where recipient = any(?::text[]) and type = any(?::text[])`,
    [pgArray([...new Set(wanted.map((item) => item.recipient))]), pgArray([...new Set(wanted.map((item) => item.type))])],
    'all',
  );
  return new Set(rows.map((row) => `${row.recipient}:${row.type}`));
}
