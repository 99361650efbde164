import type { ServiceContext } from '@academy/service';
import { subscribeReplicas } from '@academy/replicas';
import type { Config } from './config.ts';

/** Every queue of the service: `payslips.replicas` keeps the employees (names, e-mails, logins, tax ids' digests and payroll codes) from academic's events. */
export async function subscriptions(ctx: ServiceContext<Config>): Promise<void> {
  await subscribeReplicas(ctx, ctx.config.REPLICAS_QUEUE, { taxIdDigestKey: ctx.config.TAX_ID_DIGEST_KEY });
}
