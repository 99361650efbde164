// The mail catcher as the profiles read it: a test counts only the e-mails of its own events. The
// seed's warnings, the teachers' daily attendance reminders (the seed's week may be this week) and
// other tests' mails land in the same catcher, often to the same seeded teachers and guardians.
import { call, eventually } from './client.ts';
import type { BackendName, TestSystem } from './harness.ts';

export interface CaughtMail {
  to: { address: string }[];
  subject: string;
  text?: string;
  html?: string;
  headers?: Record<string, string | string[]>;
  attachments?: unknown[];
}

export interface EmailDelivery {
  id: number;
  eventId: string;
  recipient: string;
  status: string;
}

/** Every e-mail the catcher holds, oldest first. */
export async function allMails(system: TestSystem): Promise<CaughtMail[]> {
  return (await call(system.mail.api, 'GET', '/email')).body as CaughtMail[];
}

/** The delivery row a mail was sent for (notifications' mail worker sets `X-Academy-Delivery`), or null. */
export function deliveryIdOf(mail: CaughtMail): number | null {
  const entry = Object.entries(mail.headers ?? {}).find(([key]) => key.toLowerCase() === 'x-academy-delivery');
  const value = Array.isArray(entry?.[1]) ? entry[1][0] : entry?.[1];
  return value ? Number(value) : null;
}

/** The ids of the events of `type` in a service's outbox whose data has `field` = `value` (a number). */
export async function eventIds(system: TestSystem, service: BackendName, type: string, field: string, values: number[]): Promise<string[]> {
  const rows = await system.sql<{ id: string }>(service, `select envelope->>'id' as id from outbox where type = $1 and (envelope->'data'->>$2)::int = any($3::int[]) order by outbox.id`, [type, field, values]);
  return rows.map((row) => row.id);
}

/** The e-mail deliveries notifications wrote for these events (one per event and recipient). */
export async function emailDeliveries(system: TestSystem, events: string[]): Promise<EmailDelivery[]> {
  return system.sql<EmailDelivery>(
    'notifications',
    `select id::int as id, event_id as "eventId", recipient, status from deliveries where channel = 'email' and event_id = any($1::text[]) order by id`,
    [events],
  );
}

/**
 * Waits until notifications has written and sent the e-mail deliveries of `events` (at least
 * `minDeliveries` of them), then answers them with the caught mails sent for them: only this test's
 * mails, whatever else the seeded people receive meanwhile.
 */
export async function mailsOfEvents(system: TestSystem, events: string[], minDeliveries = 1, timeoutMs = 30_000): Promise<{ deliveries: EmailDelivery[]; mails: CaughtMail[] }> {
  const deliveries = await eventually('the e-mail deliveries of the events sent', async () => {
    const rows = await emailDeliveries(system, events);
    return rows.length >= minDeliveries && rows.every((row) => row.status === 'sent') ? rows : undefined;
  }, timeoutMs);
  const ids = new Set(deliveries.map((delivery) => delivery.id));
  // Sent means handed to the catcher's SMTP server; it lists the mail a moment later.
  const mails = await eventually('the sent mails in the catcher', async () => {
    const ours = (await allMails(system)).filter((mail) => ids.has(deliveryIdOf(mail) ?? -1));
    return ours.length >= deliveries.length ? ours : undefined;
  }, 10_000);
  return { deliveries, mails };
}

/** The caught mails sent for these deliveries (again, to see that nothing more arrived). */
export async function mailsOfDeliveries(system: TestSystem, deliveries: EmailDelivery[]): Promise<CaughtMail[]> {
  const ids = new Set(deliveries.map((delivery) => delivery.id));
  return (await allMails(system)).filter((mail) => ids.has(deliveryIdOf(mail) ?? -1));
}

/** The addresses a list of mails went to, one entry per mail (several recipients joined by commas), sorted. */
export const addressesOf = (mails: CaughtMail[]): string[] => mails.map((mail) => mail.to.map((to) => to.address.toLowerCase()).join(',')).sort();
