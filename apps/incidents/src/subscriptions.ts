import { privacyStorage, subscribePrivacy, type PrivacySubscription } from '@academy/privacy';
import { subscribeReplicas } from '@academy/replicas';
import { incidentsPrivacy } from './privacy/incidents.privacy.ts';
import type { IncidentsContext } from './shared/incidents-context.ts';

/**
 * Every queue of the service: `incidents.replicas` keeps the employees (their names and logins,
 * when they were first heard of) and the timetable (who is expected to clock in, and when) from
 * academic's events; `incidents.privacy` answers the service's part of a personal data request
 * (@academy/privacy), whose sweep timer the service's stop ends.
 */
export async function subscriptions(ctx: IncidentsContext): Promise<PrivacySubscription> {
  await subscribeReplicas(ctx, ctx.config.REPLICAS_QUEUE, { timetable: true });
  const providers = incidentsPrivacy({ storage: ctx.storage, timeZone: ctx.config.ACADEMY_TIME_ZONE });
  return subscribePrivacy(ctx, { service: 'incidents', queue: ctx.config.PRIVACY_QUEUE, providers, storage: privacyStorage(ctx.config) });
}
