import type { Express } from 'express';
import { currentUser } from '@academy/auth';
import { registerDeviceTokenRoute, removeDeviceTokenRoute } from '@academy/contracts';
import { routeBinder } from '@academy/service';
import type { NotificationsContext } from '../notifications-context.ts';
import { registerDeviceToken, removeDeviceToken } from './device-tokens.ts';

/** The caller's push tokens, one per device. */
export function registerDeviceRoutes(app: Express, ctx: NotificationsContext): void {
  const bind = routeBinder(app, ctx);
  bind(registerDeviceTokenRoute, async ({ body, res }) => {
    const data = await registerDeviceToken(ctx.orm.em, currentUser(res).userId, body);
    res.json({ success: true, message: 'Device token registered successfully', data });
  });
  bind(removeDeviceTokenRoute, async ({ params, res }) => {
    await removeDeviceToken(ctx.orm.em, currentUser(res).userId, params.deviceId);
    res.json({ success: true, message: 'Device token removed successfully' });
  });
}
