// The once-a-day reminder check, run every ATTENDANCE_CHECK_INTERVAL_MS on every instance: the
// unique teacher-day row makes it one reminder per teacher per day whoever runs first.
import { runEvery } from '@academy/kit';
import type { AcademicContext } from '../shared/academic-context.ts';
import { sendAttendanceReminders } from './send-attendance-reminders.ts';

/** Starts the timer (never two runs of one instance at once); returns its stop, which waits for a run in flight. */
export function startAttendanceReminders(ctx: AcademicContext): () => Promise<void> {
  return runEvery(
    ctx.config.ATTENDANCE_CHECK_INTERVAL_MS,
    async () => {
      const sent = await sendAttendanceReminders(ctx);
      if (!sent) return;
      ctx.logger.info({ sent }, 'attendance reminders recorded');
      ctx.relay.nudge();
    },
    (error) => ctx.logger.warn({ err: error }, 'attendance reminder check failed; the next run retries'),
    'attendance reminders',
  );
}
