import type { Express } from 'express';
import { errorStyle } from '@academy/kit';
import type { NotificationsContext } from './notifications-context.ts';
import { registerDeliveryRoutes } from './deliveries/deliveries.routes.ts';
import { registerDeviceRoutes } from './devices/devices.routes.ts';
import { registerEmailRoutes } from './email/email.routes.ts';
import { registerPreferenceRoutes } from './preferences/preferences.routes.ts';
import { registerPushRoutes } from './push/push.routes.ts';

/** Mounts each feature's routes (declared in the contracts, bound with routeBinder); a new feature adds its line here. */
export function registerRoutes(app: Express, ctx: NotificationsContext): void {
  // A path under the families that no route matches answers its 404 in their `{ success: false, … }` style too.
  app.use(['/api/v2/notifications', '/api/v2/push-notifications'], errorStyle('success'));
  registerEmailRoutes(app, ctx);
  registerDeviceRoutes(app, ctx);
  registerDeliveryRoutes(app, ctx);
  registerPreferenceRoutes(app, ctx);
  registerPushRoutes(app, ctx);
}
