import { consume } from '@academy/messaging';
import { subscribePrivacy, type PrivacySubscription } from '@academy/privacy';
import type { AcademicContext } from './shared/academic-context.ts';
import { academicPrivacyProviders } from './privacy-requests/academic-providers.ts';
import { onPrivacyPartAnswered } from './privacy-requests/privacy-part-answered.handler.ts';

/**
 * Every queue of the service: `academic.privacy` answers academic's own part of a personal data
 * request (its providers), `academic.privacy-requests` records every service's answer on the request.
 * Answers the privacy subscription, whose sweep timer the service's stop ends.
 */
export async function subscriptions(ctx: AcademicContext): Promise<PrivacySubscription> {
  await consume(ctx.broker, { orm: ctx.orm, queue: ctx.config.PRIVACY_REQUESTS_QUEUE, handlers: { 'privacy.part.answered': onPrivacyPartAnswered(ctx.clock) } });
  return subscribePrivacy(ctx, { service: 'academic', queue: ctx.config.PRIVACY_QUEUE, providers: academicPrivacyProviders(ctx), storage: ctx.privacyStorage });
}
