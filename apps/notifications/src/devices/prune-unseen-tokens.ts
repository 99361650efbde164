import type { NotificationsContext } from '../notifications-context.ts';
import { pruneStaleTokens } from './devices.store.ts';

/** Deletes the tokens unseen for TOKEN_RETENTION_DAYS before `input.now`; answers how many. The hourly maintenance calls it: `(ctx, input)`. */
export function pruneUnseenTokens(ctx: NotificationsContext, input: { now: Date }): Promise<number> {
  return pruneStaleTokens(ctx.orm.em.fork(), input.now, ctx.config.TOKEN_RETENTION_DAYS);
}
