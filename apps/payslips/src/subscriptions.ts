import type { ServiceContext } from '@academy/service';
import { subscribeReplicas } from '@academy/replicas';
import type { Config } from './config.ts';

/** Every queue of the service: `payslips.replicas` keeps the employees (names, e-mails, logins, tax ids and payroll codes) from academic's events. */
export async function subscriptions(ctx: ServiceContext<Config>): Promise<void> {
  await subscribeReplicas(ctx, ctx.config.REPLICAS_QUEUE);
}
