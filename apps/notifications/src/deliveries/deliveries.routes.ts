import { deliveriesContract } from '@academy/contracts';
import { implement } from '../notifications-context.ts';
import { listDeliveries } from './list-deliveries.ts';

/** What was sent, recorded, failed or parked, and why (admin). */
export const deliveryRoutes = implement(deliveriesContract, {
  list: async ({ query }, ctx, actor) => ({ status: 200, body: { success: true, ...(await listDeliveries(ctx, query, actor)) } }),
});
