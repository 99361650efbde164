import type { Express } from 'express';
import { currentUser } from '@academy/auth';
import { listDeliveriesRoute, pushSendRoute, readPreferencesRoute, registerDeviceTokenRoute, removeDeviceTokenRoute, unsubscribeRoute, updatePreferencesRoute } from '@academy/contracts';
import { routeBinder } from '@academy/service';
import { errorStyle } from '@academy/kit';
import type { NotificationsContext } from '../notifications-context.ts';
import { listDeliveries } from '../deliveries/list-deliveries.ts';
import { registerDeviceToken, removeDeviceToken } from '../devices/device-tokens.ts';
import { readAll, updatePreferences } from '../preferences/preferences.ts';
import { unsubscribe, unsubscribeSettings } from '../preferences/unsubscribes.ts';
import { unsubscribePage } from '../email/unsubscribe-page.ts';
import { sendPush } from '../push/send-push.ts';

/** Binds the routes declared in the contracts; every one answers errors as `{ success: false, message, code }` (the spec's notifications style). */
export function registerRoutes(app: Express, ctx: NotificationsContext): void {
  const em = () => ctx.orm.em;
  const bind = routeBinder(app, ctx, { apiKey: ctx.config.PUSH_NOTIFICATIONS_API_KEY });
  // A path under the families that no route matches answers its 404 in their style too.
  app.use(['/api/v2/notifications', '/api/v2/push-notifications'], errorStyle('success'));

  // Public (a guardian has no login).
  bind(unsubscribeRoute, async ({ query, res }) => {
    const outcome = await unsubscribe(em().fork(), unsubscribeSettings(ctx.config), query.token, ctx.clock.now());
    if (!outcome.ok) ctx.logger.info({ reason: outcome.reason }, 'unsubscribe link refused');
    res
      .status(outcome.ok ? 200 : 400)
      .type('html')
      .set({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
      .send(unsubscribePage(ctx.config.ACADEMY_LOCALE, outcome));
  });

  bind(registerDeviceTokenRoute, async ({ body, res }) => {
    const data = await registerDeviceToken(em(), currentUser(res).userId, body);
    res.json({ success: true, message: 'Device token registered successfully', data });
  });
  bind(removeDeviceTokenRoute, async ({ params, res }) => {
    await removeDeviceToken(em(), currentUser(res).userId, params.deviceId);
    res.json({ success: true, message: 'Device token removed successfully' });
  });
  bind(listDeliveriesRoute, async ({ query, res }) => {
    res.json({ success: true, ...(await listDeliveries(em(), query)) });
  });
  bind(readPreferencesRoute, async ({ res }) => {
    res.json({ success: true, data: await readAll(em(), currentUser(res).userId) });
  });
  bind(updatePreferencesRoute, async ({ body, res }) => {
    res.json({ success: true, data: await updatePreferences(em().fork(), currentUser(res).userId, body, ctx.clock.now()) });
  });

  bind(pushSendRoute, async ({ body, res }) => {
    res.json(await sendPush(em(), ctx.push, body));
  });
}
