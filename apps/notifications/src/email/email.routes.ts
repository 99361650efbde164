import type { Express } from 'express';
import { unsubscribeRoute } from '@academy/contracts';
import { routeBinder } from '@academy/service';
import type { NotificationsContext } from '../notifications-context.ts';
import { unsubscribe, unsubscribeSettings } from './unsubscribes.ts';
import { unsubscribePage } from './unsubscribe-page.ts';

/** The unsubscribe link of a guardian's mail: public (a guardian has no login), answered with a plain HTML page. */
export function registerEmailRoutes(app: Express, ctx: NotificationsContext): void {
  const bind = routeBinder(app, ctx);
  bind(unsubscribeRoute, async ({ query, res }) => {
    const outcome = await unsubscribe(ctx.orm.em.fork(), unsubscribeSettings(ctx.config), query.token, ctx.clock.now());
    if (!outcome.ok) ctx.logger.info({ reason: outcome.reason }, 'unsubscribe link refused');
    res
      .status(outcome.ok ? 200 : 400)
      .type('html')
      .set({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
      .send(unsubscribePage(ctx.config.ACADEMY_LOCALE, outcome));
  });
}
