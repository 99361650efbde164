import type { ServiceContext } from '@academy/service';
import { subscribeReplicas } from '@academy/replicas';
import type { Config } from '../config.ts';

/**
 * Every queue of the service: `incidents.replicas` keeps the employees (who is expected to clock
 * in, their names and logins) from academic's events.
 */
export async function subscriptions(ctx: ServiceContext<Config>): Promise<void> {
  await subscribeReplicas(ctx, ctx.config.REPLICAS_QUEUE);
}
