import type { Express } from 'express';
import { notificationsApi, notificationsUnsubscribeApi, pushSendApi } from '@academy/contracts';
import { errorStyle } from '@academy/kit';
import { PART_PATH, privacyPartRoutes, privacyStorage } from '@academy/privacy';
import { mountImplementations } from '@academy/service';
import type { NotificationsContext } from './notifications-context.ts';
import { deliveryRoutes } from './deliveries/deliveries.routes.ts';
import { deviceRoutes } from './devices/devices.routes.ts';
import { emailRoutes } from './email/email.routes.ts';
import { preferenceRoutes } from './preferences/preferences.routes.ts';
import { pushRoutes } from './push/push.routes.ts';

/** Mounts every feature's routes; a route of the service's families with no handler fails the start. A new feature adds its implementation here. */
export function registerRoutes(app: Express, ctx: NotificationsContext): void {
  // A path under the families that no route matches answers its 404 in their `{ success: false, … }` style too.
  app.use(['/api/v2/notifications', '/api/v2/push-notifications'], errorStyle('success'));
  // academic reads this service's part of a personal data request here (internal, x-api-key; @academy/privacy)
  app.use(PART_PATH, privacyPartRoutes({ orm: ctx.orm, storage: privacyStorage(ctx.config), apiKey: ctx.config.PRIVACY_API_KEY, clock: ctx.clock }));
  mountImplementations(app, ctx, [emailRoutes, deviceRoutes, deliveryRoutes, preferenceRoutes, pushRoutes], {
    families: [notificationsApi, notificationsUnsubscribeApi, pushSendApi],
    apiKey: ctx.config.PUSH_NOTIFICATIONS_API_KEY,
  });
}
