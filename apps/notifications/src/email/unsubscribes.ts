// Address-level opt-outs: what a guardian's unsubscribe link records (table `email_unsubscribes`,
// one row per address and type), read by the mail worker with each claim, at send time (mail-worker.ts).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { NotificationType, OptOut, OptOutKey, OptOutsQuery, PageMeta } from '@academy/contracts';
import { pageMeta } from '@academy/kit';
import { optOutNotFound } from '../notifications.errors.ts';
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

interface OptOutRow {
  recipient: string;
  type: NotificationType;
  created_at: Date;
  total: string;
}
const optOut = (row: Omit<OptOutRow, 'total'>): OptOut => ({ recipient: row.recipient, type: row.type, createdAt: new Date(row.created_at).toISOString() });

/** The recorded opt-outs (admin), newest first, one page and the total in one query. */
export async function listOptOuts(em: EntityManager, query: OptOutsQuery): Promise<{ data: OptOut[]; meta: PageMeta }> {
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

/** Undoes one opt-out (admin): the address gets mails of that type again from the next one. */
export async function removeOptOut(em: EntityManager, key: OptOutKey): Promise<OptOut> {
  const [removed] = await em
    .getConnection()
    .execute<Omit<OptOutRow, 'total'>[]>(`delete from email_unsubscribes where recipient = ? and type = ? returning recipient, type, created_at`, [key.recipient.trim().toLowerCase(), key.type], 'all', em.getTransactionContext());
  if (!removed) throw optOutNotFound();
  return optOut(removed);
}
