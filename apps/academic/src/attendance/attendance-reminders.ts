// The once-a-day reminder check, run every ATTENDANCE_CHECK_INTERVAL_MS on every instance: the
// unique teacher-day row makes it one reminder per teacher per day whoever runs first.
import type { AcademicContext } from '../shared/academic-context.ts';
import { runEvery } from '@academy/kit';
import { sendAttendanceReminders } from './missing-attendance.ts';

/** One run at `ctx.clock`'s now (what the timer calls; tests call it with a pinned clock). */
export function runAttendanceReminders(ctx: Pick<AcademicContext, 'config' | 'orm' | 'clock'>): Promise<number> {
  const { ACADEMY_TIME_ZONE: timeZone, ATTENDANCE_EDIT_DAYS: editDays, ATTENDANCE_REMINDER_HOUR: reminderHour } = ctx.config;
  return sendAttendanceReminders(ctx.orm.em.fork(), ctx.clock.now(), { timeZone, editDays, reminderHour });
}

/** Starts the timer (never two runs of one instance at once); returns its stop, which waits for a run in flight. */
export function startAttendanceReminders(ctx: AcademicContext): () => Promise<void> {
  return runEvery(
    ctx.config.ATTENDANCE_CHECK_INTERVAL_MS,
    async () => {
      const sent = await runAttendanceReminders(ctx);
      if (!sent) return;
      ctx.logger.info({ sent }, 'attendance reminders recorded');
      ctx.relay.nudge();
    },
    (error) => ctx.logger.warn({ err: error }, 'attendance reminder check failed; the next run retries'),
    'attendance reminders',
  );
}
