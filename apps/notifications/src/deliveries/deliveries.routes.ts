import type { Express } from 'express';
import { listDeliveriesRoute } from '@academy/contracts';
import { routeBinder } from '@academy/service';
import type { NotificationsContext } from '../notifications-context.ts';
import { listDeliveries } from './list-deliveries.ts';

/** What was sent, recorded, failed or parked, and why (admin). */
export function registerDeliveryRoutes(app: Express, ctx: NotificationsContext): void {
  const bind = routeBinder(app, ctx);
  bind(listDeliveriesRoute, async ({ query, res }) => {
    res.json({ success: true, ...(await listDeliveries(ctx.orm.em, query)) });
  });
}
