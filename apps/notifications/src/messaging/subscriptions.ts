import { consume } from '@academy/messaging';
import type { ServiceContext } from '@academy/service';
import type { Config } from '../config.ts';
import { onBlockApproved } from '../email/block-approved.handler.ts';
import { payslipHandlers } from '../email/payslip-published.handler.ts';
import { attendanceHandlers } from '../email/attendance-notices.handler.ts';
import type { Runtime } from '../runtime.ts';
import { onIncidentChanged } from '../realtime/incident-changed.handler.ts';

/**
 * Every queue of the service: `notifications.block-approved` (the e-mails: block approvals, and the
 * payslip notices and the attendance reminder, whose push goes out with their mail; the attendance
 * warnings) and
 * `notifications.incidents` (the real-time `incident_notification` and the push on an admin reply).
 * Instances compete on each queue; the Redis adapter carries a socket emit to every instance.
 */
export async function subscriptions(ctx: ServiceContext<Config>, runtime: Runtime): Promise<void> {
  await consume(ctx.broker, {
    orm: ctx.orm,
    queue: ctx.config.EMAIL_QUEUE,
    handlers: {
      'block.approved': onBlockApproved(() => runtime.mailWorker.wake()),
      ...payslipHandlers({ orm: ctx.orm, push: runtime.push, wake: () => runtime.mailWorker.wake(), appUrl: ctx.config.APP_URL }),
      ...attendanceHandlers({ orm: ctx.orm, push: runtime.push, wake: () => runtime.mailWorker.wake(), appUrl: ctx.config.APP_URL }),
    },
  });
  const incidents = onIncidentChanged({ realtime: runtime.realtime, orm: ctx.orm, push: runtime.push });
  await consume(ctx.broker, {
    orm: ctx.orm,
    queue: ctx.config.REALTIME_QUEUE,
    handlers: { 'incident.created': incidents, 'incident.updated': incidents },
  });
}
