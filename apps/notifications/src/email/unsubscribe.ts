import type { NotificationsContext } from '../notifications-context.ts';
import { insertUnsubscribe } from './email.store.ts';
import { unsubscribeSettings, type UnsubscribeOutcome } from './unsubscribe-links.ts';
import { readUnsubscribeToken } from './unsubscribe-token.ts';

/** Records the opt-out a valid token names (the page's button, or a mail client's one-click POST); again: `already`, no change. */
export async function unsubscribe(ctx: NotificationsContext, input: { token: string }): Promise<UnsubscribeOutcome> {
  const now = ctx.clock.now();
  const read = readUnsubscribeToken(unsubscribeSettings(ctx.config).secret, input.token, now);
  if (!read.ok) return read;
  const { type, address } = read.claim;
  return { ok: true, type, address, already: !(await insertUnsubscribe(ctx.orm.em, address, type, now)) };
}
