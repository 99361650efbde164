import { privacyStorage, subscribePrivacy, type PrivacySubscription } from '@academy/privacy';
import { subscribeReplicas } from '@academy/replicas';
import type { ServiceContext } from '@academy/service';
import type { Config } from './config.ts';
import { hoursBankProviders } from './privacy/hours-bank.privacy.ts';

/**
 * Every queue of the service. `hours-bank.replicas` keeps the employees and school courses that
 * the hours bank checks locally (@academy/replicas; academic publishes them, and
 * `npm run republish:academic` replays the current ones for a new deployment). `hours-bank.privacy`
 * answers the service's part of a personal data request (@academy/privacy); its sweep timer is what
 * the service's stop ends.
 */
export async function subscriptions(ctx: ServiceContext<Config>): Promise<PrivacySubscription> {
  await subscribeReplicas(ctx, ctx.config.REPLICAS_QUEUE);
  return subscribePrivacy(ctx, { service: 'hours-bank', queue: ctx.config.PRIVACY_QUEUE, providers: hoursBankProviders, storage: privacyStorage(ctx.config) });
}
