import { Router, type Express } from 'express';
import { currentUser, requireApiKey, requireAuth, requireRole } from '@academy/auth';
import { DeliveriesQuery, DeviceIdParams, PreferencesBody, PushSendBody, RegisterDeviceTokenBody, unsubscribeRoute } from '@academy/contracts';
import { routeBinder } from '@academy/service';
import { errorStyle, noQuery } from '@academy/kit';
import type { NotificationsContext } from '../notifications-context.ts';
import { listDeliveries } from '../deliveries/list-deliveries.ts';
import { registerDeviceToken, removeDeviceToken } from '../devices/device-tokens.ts';
import { readAll, updatePreferences } from '../preferences/preferences.ts';
import { unsubscribe, unsubscribeSettings } from '../preferences/unsubscribes.ts';
import { unsubscribePage } from '../email/unsubscribe-page.ts';
import { sendPush } from '../push/send-push.ts';

/** Every route answers errors as `{ success: false, message, code }` (the spec's notifications style). */
export function registerRoutes(app: Express, ctx: NotificationsContext): void {
  const em = () => ctx.orm.em;

  // Public (a guardian has no login): declared in the contracts and bound before the family's authenticated router.
  const bind = routeBinder(app, ctx);
  bind(unsubscribeRoute, async ({ query, res }) => {
    const outcome = await unsubscribe(em().fork(), unsubscribeSettings(ctx.config), query.token, ctx.clock.now());
    if (!outcome.ok) ctx.logger.info({ reason: outcome.reason }, 'unsubscribe link refused');
    res
      .status(outcome.ok ? 200 : 400)
      .type('html')
      .set({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
      .send(unsubscribePage(ctx.config.ACADEMY_LOCALE, outcome));
  });

  const notifications = Router();
  notifications.use(errorStyle('success'), requireAuth(ctx.verifier, { message: 'Unauthorized' }));
  notifications.post('/token', noQuery, async (req, res) => {
    const input = RegisterDeviceTokenBody.parse(req.body);
    const data = await registerDeviceToken(em(), currentUser(res).userId, input);
    res.json({ success: true, message: 'Device token registered successfully', data });
  });
  notifications.delete('/token/:deviceId', noQuery, async (req, res) => {
    const { deviceId } = DeviceIdParams.parse(req.params);
    await removeDeviceToken(em(), currentUser(res).userId, deviceId);
    res.json({ success: true, message: 'Device token removed successfully' });
  });
  notifications.get('/deliveries', requireRole('admin', { message: 'Only administrators may list deliveries' }), async (req, res) => {
    const query = DeliveriesQuery.parse(req.query);
    res.json({ success: true, ...(await listDeliveries(em(), query)) });
  });
  notifications.get('/preferences', noQuery, async (_req, res) => {
    res.json({ success: true, data: await readAll(em(), currentUser(res).userId) });
  });
  notifications.put('/preferences', noQuery, async (req, res) => {
    const input = PreferencesBody.parse(req.body);
    res.json({ success: true, data: await updatePreferences(em().fork(), currentUser(res).userId, input, ctx.clock.now()) });
  });
  app.use('/api/v2/notifications', notifications);

  const pushNotifications = Router();
  pushNotifications.use(errorStyle('success'));
  pushNotifications.post('/send', requireApiKey(ctx.config.PUSH_NOTIFICATIONS_API_KEY, { message: 'Invalid or missing API key' }), noQuery, async (req, res) => {
    const input = PushSendBody.parse(req.body);
    res.json(await sendPush(em(), ctx.push, input));
  });
  app.use('/api/v2/push-notifications', pushNotifications);
}
