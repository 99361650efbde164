// The once-a-day reminder check, run every ATTENDANCE_CHECK_INTERVAL_MS on every instance: the
// unique teacher-day row makes it one reminder per teacher per day whoever runs first.
import type { AcademicContext } from '../shared/academic-context.ts';
import { sendAttendanceReminders } from './missing-attendance.ts';

/** One run at `ctx.clock`'s now (what the timer calls; tests call it with a pinned clock). */
export function runAttendanceReminders(ctx: Pick<AcademicContext, 'config' | 'orm' | 'clock'>): Promise<number> {
  const { ACADEMY_TIME_ZONE: timeZone, ATTENDANCE_EDIT_DAYS: editDays, ATTENDANCE_REMINDER_HOUR: reminderHour } = ctx.config;
  return sendAttendanceReminders(ctx.orm.em.fork(), ctx.clock.now(), { timeZone, editDays, reminderHour });
}

/** Starts the timer (never two runs of one instance at once); returns its stop, which waits for a run in flight. */
export function startAttendanceReminders(ctx: AcademicContext): () => Promise<void> {
  const intervalMs = ctx.config.ATTENDANCE_CHECK_INTERVAL_MS;
  if (intervalMs <= 0) return async () => {};
  let current: Promise<void> | null = null;
  const tick = () => {
    current ??= runAttendanceReminders(ctx)
      .then((sent) => {
        if (sent) {
          ctx.logger.info({ sent }, 'attendance reminders recorded');
          ctx.relay.nudge();
        }
      })
      .catch((error: unknown) => ctx.logger.warn({ err: error }, 'attendance reminder check failed; the next run retries'))
      .finally(() => {
        current = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await current;
  };
}
