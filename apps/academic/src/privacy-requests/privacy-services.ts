import { eventParties } from '@academy/contracts';

/**
 * The services that must answer a request: every app that consumes `privacy.request.opened` in the
 * contracts' topology (checked against the services' sources by tools/contracts), academic included.
 */
export const answeringServices = (): string[] => eventParties('privacy.request.opened').consumers.slice().sort();

/** One month after `openedAt` (GDPR art. 12.3), the same day of the next month or its last day. */
export function deadlineOf(openedAt: Date): Date {
  const deadline = new Date(openedAt);
  const day = deadline.getUTCDate();
  deadline.setUTCDate(1);
  deadline.setUTCMonth(deadline.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(deadline.getUTCFullYear(), deadline.getUTCMonth() + 1, 0)).getUTCDate();
  deadline.setUTCDate(Math.min(day, lastDay));
  return deadline;
}
