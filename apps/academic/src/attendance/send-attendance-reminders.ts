// The daily reminder to each teacher with missing sheets: one `attendance.missing` per teacher and
// academy day, however many instances run the check (a unique row per teacher-day, inserted with
// ON CONFLICT DO NOTHING in the transaction that records the event).
import { recordEvent } from '@academy/messaging';
import type { AcademicContext } from '../shared/academic-context.ts';
import { SOURCE } from '../shared/events.ts';
import { addDays, dayOf, hourOf, localIso } from './academy-days.ts';
import { insertReminder, selectTeachersToRemind } from './attendance.store.ts';
import { validEmail } from './threshold-warnings.ts';

/**
 * The day's reminders at `ctx.clock`'s now (from `ATTENDANCE_REMINDER_HOUR` of the academy's day
 * on): each teacher with classes they can still take (ended, within the editing window) and no
 * sheet, not yet reminded today. Answers how many reminders this run recorded.
 */
export async function sendAttendanceReminders(ctx: Pick<AcademicContext, 'config' | 'orm' | 'clock'>): Promise<number> {
  const { ACADEMY_TIME_ZONE: timeZone, ATTENDANCE_EDIT_DAYS: editDays, ATTENDANCE_REMINDER_HOUR: reminderHour } = ctx.config;
  const now = ctx.clock.now();
  if (hourOf(now, timeZone) < reminderHour) return 0;
  const em = ctx.orm.em.fork();
  const day = dayOf(now, timeZone);
  const teachers = await selectTeachersToRemind(em, { now, firstDay: addDays(day, -editDays), day, timeZone });
  let sent = 0;
  for (const teacher of teachers) {
    const recorded = await em.fork().transactional(async (tx) => {
      if (!(await insertReminder(tx, { employeeId: teacher.employeeId, day, missingCount: teacher.missingCount, sentAt: now }))) return false;
      recordEvent(
        tx,
        'attendance.missing',
        {
          employeeId: teacher.employeeId,
          day,
          teacher: { name: teacher.name, email: validEmail(teacher.email), userId: teacher.userId, locale: teacher.locale },
          missingCount: teacher.missingCount,
          // Wall times of the academy with their offset: the mail shows them as they are, whatever its server's zone.
          classes: teacher.classes.map((c) => ({ ...c, startsAt: localIso(c.startsAt, timeZone), endsAt: localIso(c.endsAt, timeZone) })),
        },
        { source: SOURCE, correlationId: `attendance-reminder-${day}` },
      );
      return true;
    });
    if (recorded) sent += 1;
  }
  return sent;
}
