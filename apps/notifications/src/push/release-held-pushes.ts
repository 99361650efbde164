import { RequestContext } from '@mikro-orm/postgresql';
import { runEvery } from '@academy/kit';
import type { NotificationsContext } from '../notifications-context.ts';
import { sendDueHeldPushes } from './push.store.ts';
import { sendPush } from './send-push.ts';

const BATCH = 100;

/**
 * Sends the pushes held for quiet hours that are due at `input.now`, each once; answers how many this
 * run sent. The claim's transaction stays open while they are sent (another instance skips its rows);
 * each goes through `sendPush` on a fork of its own, committed as it goes, under the key
 * `held-push:<id>`, so a run that dies after a send does not send it twice. The timer is its caller: `(ctx, input)`.
 */
export function releaseHeldPushes(ctx: NotificationsContext, input: { now: Date }): Promise<number> {
  return sendDueHeldPushes(ctx.orm.em.fork(), input.now, BATCH, (held) =>
    RequestContext.create(ctx.orm.em.fork(), () =>
      sendPush(ctx, { message: { ...held.message, userIds: [held.user_id], idempotencyKey: `held-push:${held.id}` }, eventType: held.event_type, quietHoursChecked: true }).then(() => undefined),
    ),
  );
}

/** Runs `releaseHeldPushes` every `intervalMs` at the service's clock (0: off, tests call it); returns its stop, which waits for a run in flight. */
export function startHeldPushSender(ctx: NotificationsContext, intervalMs: number): () => Promise<void> {
  return runEvery(
    intervalMs,
    async () => {
      const sent = await releaseHeldPushes(ctx, { now: ctx.clock.now() });
      if (sent) ctx.logger.info({ sent }, 'held pushes sent (quiet hours over)');
    },
    (error) => ctx.logger.warn({ err: error }, 'held push sender failed; the next run retries'),
    'held pushes',
  );
}
