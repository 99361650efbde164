import { consume } from '@academy/messaging';
import { privacyStorage, subscribePrivacy, type PrivacySubscription } from '@academy/privacy';
import { onBlockApproved } from './email/block-approved.handler.ts';
import { payslipHandlers } from './email/payslip-published.handler.ts';
import { attendanceHandlers } from './email/attendance-notices.handler.ts';
import { onPendingDigest } from './email/pending-digest.handler.ts';
import type { GuardianLink } from './email/recipients.ts';
import { unsubscribeLink as unsubscribeLinkFor, unsubscribeSettings } from './email/unsubscribe-links.ts';
import type { NotificationsContext } from './notifications-context.ts';
import { notificationsProviders } from './privacy.ts';
import { sendPush } from './push/send-push.ts';
import { onIncidentChanged } from './realtime/incident-changed.handler.ts';
import type { SendPush } from './shared/push-message.ts';

/**
 * Every queue of the service: `notifications.email` (the e-mails: block approvals, and the
 * payslip notices and the attendance reminder, whose push goes out with their mail; the attendance
 * warnings; the admins' approval digest) and
 * `notifications.incidents` (the real-time `incident_notification` and the push on an admin reply).
 * Instances compete on each queue; the Redis adapter carries a socket emit to every instance.
 * `notifications.privacy` answers the service's part of a personal data request (@academy/privacy);
 * its sweep timer is what the service's stop ends.
 */
export async function subscriptions(ctx: NotificationsContext): Promise<PrivacySubscription> {
  const academy = { locale: ctx.config.ACADEMY_LOCALE, timeZone: ctx.config.ACADEMY_TIME_ZONE };
  // The one way a push goes out, on this context, for the handlers whose events push (they import no sibling feature).
  const push: SendPush = (input) => sendPush(ctx, input);
  const unsubscribeLink: GuardianLink = (type, address) => unsubscribeLinkFor(unsubscribeSettings(ctx.config), type, address, ctx.clock.now());
  // batchSize 1 on both queues: their handlers push (and emit) before the commit, and a batch that fails is
  // handled again event by event, which would push the batch's other events twice (mails go through the
  // mail worker after the commit and never would).
  await consume(ctx.broker, {
    orm: ctx.orm,
    queue: ctx.config.EMAIL_QUEUE,
    batchSize: 1,
    handlers: {
      'block.approved': onBlockApproved(() => ctx.mailWorker.wake(), academy, unsubscribeLink),
      ...payslipHandlers({ sendPush: push, wake: () => ctx.mailWorker.wake(), appUrl: ctx.config.APP_URL, academy }),
      ...attendanceHandlers({ sendPush: push, wake: () => ctx.mailWorker.wake(), appUrl: ctx.config.APP_URL, academy, unsubscribeLink }),
      'blocks.pending-digest': onPendingDigest({ wake: () => ctx.mailWorker.wake(), appUrl: ctx.config.APP_URL, academy }),
    },
  });
  const incidents = onIncidentChanged(ctx, push);
  await consume(ctx.broker, {
    orm: ctx.orm,
    queue: ctx.config.REALTIME_QUEUE,
    batchSize: 1,
    handlers: { 'incident.created': incidents, 'incident.updated': incidents },
  });
  return subscribePrivacy(ctx, { service: 'notifications', queue: ctx.config.PRIVACY_QUEUE, providers: notificationsProviders, storage: privacyStorage(ctx.config) });
}
