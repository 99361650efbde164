import type { Express } from 'express';
import { pushSendRoute } from '@academy/contracts';
import { routeBinder } from '@academy/service';
import type { NotificationsContext } from '../notifications-context.ts';
import { sendPush } from '../shared/send-push.ts';

/** The internal send other services call with the `x-api-key`. */
export function registerPushRoutes(app: Express, ctx: NotificationsContext): void {
  const bind = routeBinder(app, ctx, { apiKey: ctx.config.PUSH_NOTIFICATIONS_API_KEY });
  bind(pushSendRoute, async ({ body, res }) => {
    res.json(await sendPush(ctx.orm.em, ctx.push, body));
  });
}
