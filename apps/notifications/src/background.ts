import { inSpan } from '@academy/kit';
import { pruneUnseenTokens } from './devices/prune-unseen-tokens.ts';
import type { NotificationsContext } from './notifications-context.ts';
import { startHeldPushSender } from './push/release-held-pushes.ts';

const MAINTENANCE_INTERVAL_MS = 60 * 60_000;

/**
 * What runs in the background once the service listens (service.ts): the mail worker's poll, the
 * held-push sender (every HELD_PUSH_POLL_MS) and the hourly maintenance (device tokens unseen too
 * long). Answers its stop, which waits for a held-push run in flight; the mail worker stops with the context.
 */
export function startBackgroundWork(ctx: NotificationsContext): () => Promise<void> {
  ctx.mailWorker.start();
  const stopHeldPushes = startHeldPushSender(ctx, ctx.config.HELD_PUSH_POLL_MS);
  const maintain = () =>
    inSpan('notifications maintenance', { root: true }, async () => {
      try {
        const pruned = await pruneUnseenTokens(ctx, { now: ctx.clock.now() });
        if (pruned) ctx.logger.info({ pruned }, 'stale device tokens pruned');
      } catch (error) {
        ctx.logger.warn({ err: error }, 'maintenance failed; retrying in an hour');
      }
    });
  const maintenance = setInterval(() => void maintain(), MAINTENANCE_INTERVAL_MS).unref();
  void maintain();
  return async () => {
    clearInterval(maintenance);
    await stopHeldPushes();
  };
}
