import { privacyStorage, subscribePrivacy, type PrivacySubscription } from '@academy/privacy';
import { subscribeReplicas } from '@academy/replicas';
import { payslipsProviders } from './privacy/payslips.privacy.ts';
import type { PayslipsContext } from './shared/payslips-context.ts';

/**
 * Every queue of the service: `payslips.replicas` keeps the employees (names, e-mails, logins, tax
 * ids' digests and payroll codes) from academic's events; `payslips.privacy` answers the service's
 * part of a personal data request (@academy/privacy), whose sweep timer the service's stop ends.
 */
export async function subscriptions(ctx: PayslipsContext): Promise<PrivacySubscription> {
  await subscribeReplicas(ctx, ctx.config.REPLICAS_QUEUE);
  const providers = payslipsProviders({ storage: ctx.storage, retentionYears: ctx.config.PAYSLIP_RETENTION_YEARS });
  return subscribePrivacy(ctx, { service: 'payslips', queue: ctx.config.PRIVACY_QUEUE, providers, storage: privacyStorage(ctx.config) });
}
