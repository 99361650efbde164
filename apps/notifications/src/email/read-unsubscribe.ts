import type { NotificationsContext } from '../notifications-context.ts';
import { isUnsubscribed } from './email.store.ts';
import { unsubscribeSettings, type UnsubscribeOutcome } from './unsubscribe-links.ts';
import { readUnsubscribeToken } from './unsubscribe-token.ts';

/** The link's page (GET): what a valid token names and whether it is already done; records nothing (mail scanners follow links). */
export async function readUnsubscribe(ctx: NotificationsContext, input: { token: string }): Promise<UnsubscribeOutcome> {
  const read = readUnsubscribeToken(unsubscribeSettings(ctx.config).secret, input.token, ctx.clock.now());
  if (!read.ok) return read;
  const { type, address } = read.claim;
  return { ok: true, type, address, already: await isUnsubscribed(ctx.orm.em, address, type) };
}
