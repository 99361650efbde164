// Address-level opt-outs: what a guardian's unsubscribe link records (table `email_unsubscribes`,
// one row per address and type), read by the mail worker with each claim, at send time (mail-worker.ts).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { NotificationType } from '@academy/contracts';
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

/** What a token names, and whether its address is already unsubscribed from its type; or why it was refused. */
export type UnsubscribeOutcome = { ok: true; type: NotificationType; address: string; already: boolean } | { ok: false; reason: TokenRefusal };

/** The link's page (GET): reads what a valid token names and whether it is already done; records nothing. */
export async function unsubscribeState(em: EntityManager, settings: UnsubscribeSettings, token: string, now: Date): Promise<UnsubscribeOutcome> {
  const read = readUnsubscribeToken(settings.secret, token, now);
  if (!read.ok) return read;
  const { type, address } = read.claim;
  const rows = await em.getConnection().execute<unknown[]>(`select 1 from email_unsubscribes where recipient = ? and type = ?`, [address, type], 'all');
  return { ok: true, type, address, already: rows.length > 0 };
}

/** Records the opt-out a valid token names (the page's button, or a mail client's one-click POST); again: `already`, no change. */
export async function unsubscribe(em: EntityManager, settings: UnsubscribeSettings, token: string, now: Date): Promise<UnsubscribeOutcome> {
  const read = readUnsubscribeToken(settings.secret, token, now);
  if (!read.ok) return read;
  const { type, address } = read.claim;
  const inserted = await em
    .getConnection()
    .execute<unknown[]>(`insert into email_unsubscribes (recipient, type, created_at) values (?, ?, ?) on conflict do nothing returning recipient`, [address, type, now], 'all');
  return { ok: true, type, address, already: inserted.length === 0 };
}
