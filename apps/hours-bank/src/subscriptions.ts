import { subscribeReplicas } from '@academy/replicas';
import type { ServiceContext } from '@academy/service';
import type { Config } from './config.ts';

/**
 * Every queue of the service. `hours-bank.replicas` keeps the employees and school courses that
 * the hours bank checks locally (@academy/replicas; academic publishes them, and
 * `npm run republish:academic` replays the current ones for a new deployment).
 */
export async function subscriptions(ctx: ServiceContext<Config>): Promise<void> {
  await subscribeReplicas(ctx, ctx.config.REPLICAS_QUEUE);
}
