import { subscribeReplicas } from '@academy/replicas';
import type { IncidentsContext } from './shared/incidents-context.ts';

/**
 * Every queue of the service: `incidents.replicas` keeps the employees (their names and logins,
 * when they were first heard of) and the timetable (who is expected to clock in, and when) from
 * academic's events.
 */
export async function subscriptions(ctx: IncidentsContext): Promise<void> {
  await subscribeReplicas(ctx, ctx.config.REPLICAS_QUEUE, { timetable: true });
}
