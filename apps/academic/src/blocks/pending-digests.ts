// The daily approval digest: from DIGEST_TIME of the academy's day on, each active admin with a
// deliverable address gets one `blocks.pending-digest` (how many blocks have waited for review longer
// than PENDING_REMINDER_HOURS, and the oldest ten), once per admin and academy day however many
// instances run the check: a unique row per admin-day, inserted with ON CONFLICT DO NOTHING in the
// transaction that records the event. Nothing is recorded while nothing waits that long.
import type { EntityManager } from '@mikro-orm/postgresql';
import { deliverableEmail } from '@academy/contracts';
import { runEvery } from '@academy/kit';
import { recordEvent } from '@academy/messaging';
import { z } from 'zod';
import type { AcademicContext } from '../shared/academic-context.ts';
import { SOURCE } from '../shared/events.ts';
import { insertDigest, selectAdminsWithoutDigest, selectWaitingSince } from './blocks.store.ts';
import { isoTime } from './iso-time.ts';

export interface DigestSettings {
  timeZone: string;
  /** "HH:MM", the academy's local time from which the day's digest goes out. */
  digestTime: string;
  thresholdHours: number;
}

const HOUR_MS = 3_600_000;

const wallFormatters = new Map<string, Intl.DateTimeFormat>();
/** The academy's date and "HH:MM" of an instant. */
function wallClock(instant: Date, timeZone: string): { day: string; time: string } {
  let formatter = wallFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });
    wallFormatters.set(timeZone, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(instant).map((part) => [part.type, part.value]));
  return { day: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

const anEmail = z.email();
const validEmail = (address: string | null) => {
  const candidate = deliverableEmail(address?.trim());
  return candidate && anEmail.safeParse(candidate).success ? candidate : null;
};

/** The day's digests at `now`: answers how many this run recorded (0 before DIGEST_TIME, when all were sent, or nothing waits). */
export async function sendPendingDigests(em: EntityManager, now: Date, settings: DigestSettings): Promise<number> {
  const { day, time } = wallClock(now, settings.timeZone);
  if (time < settings.digestTime) return 0;
  const admins = await selectAdminsWithoutDigest(em, day);
  const recipients = admins.flatMap((admin) => {
    const email = validEmail(admin.email);
    return email ? [{ ...admin, email }] : [];
  });
  if (!recipients.length) return 0;
  const waiting = await selectWaitingSince(em, new Date(now.getTime() - settings.thresholdHours * HOUR_MS));
  if (!waiting.count) return 0;
  const oldest = waiting.oldest.map((row) => {
    const closedAt = isoTime(row.closedAt)!;
    return { ...row, closedAt, waitingHours: Math.floor((now.getTime() - Date.parse(closedAt)) / HOUR_MS) };
  });
  let sent = 0;
  for (const admin of recipients) {
    const recorded = await em.fork().transactional(async (tx) => {
      if (!(await insertDigest(tx, { userId: admin.userId, day, pendingCount: waiting.count, sentAt: now }))) return false;
      recordEvent(
        tx,
        'blocks.pending-digest',
        {
          day,
          at: now.toISOString(),
          thresholdHours: settings.thresholdHours,
          admin: { name: admin.name, email: admin.email, userId: admin.userId, locale: admin.locale },
          count: waiting.count,
          oldest,
        },
        { source: SOURCE, correlationId: `pending-digest-${day}` },
      );
      return true;
    });
    if (recorded) sent += 1;
  }
  return sent;
}

/** One run at `ctx.clock`'s now (what the timer calls; tests call it with a pinned clock). */
export function runPendingDigests(ctx: Pick<AcademicContext, 'config' | 'orm' | 'clock'>): Promise<number> {
  const { ACADEMY_TIME_ZONE: timeZone, DIGEST_TIME: digestTime, PENDING_REMINDER_HOURS: thresholdHours } = ctx.config;
  return sendPendingDigests(ctx.orm.em.fork(), ctx.clock.now(), { timeZone, digestTime, thresholdHours });
}

/** Starts the check every DIGEST_CHECK_INTERVAL_MS (never two runs of one instance at once); returns its stop, which waits for a run in flight. */
export function startPendingDigests(ctx: AcademicContext): () => Promise<void> {
  return runEvery(
    ctx.config.DIGEST_CHECK_INTERVAL_MS,
    async () => {
      const sent = await runPendingDigests(ctx);
      if (!sent) return;
      ctx.logger.info({ sent }, 'approval digests recorded');
      ctx.relay.nudge();
    },
    (error) => ctx.logger.warn({ err: error }, 'approval digest check failed; the next run retries'),
    'pending digests',
  );
}
