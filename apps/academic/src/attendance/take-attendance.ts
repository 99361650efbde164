// Taking a class's attendance, in one transaction under the subject's attendance lock: check who and
// when, the roster, the statuses and the minutes; compare with the marks as they are now and write
// only what changes (marks, history, sheet), with `attendance.recorded` and any warning.
import type { Actor } from '@academy/auth';
import type { AttendanceSheetResponse, TakeAttendanceBody } from '@academy/contracts';
import { recordEvent } from '@academy/messaging';
import type { AcademicContext } from '../shared/academic-context.ts';
import { SOURCE } from '../shared/events.ts';
import { attendanceLocked, classNotStarted, eventNotFound, minutesLateOverClass, notEventTeacher, studentsNotOnRoster, unknownStatuses } from './attendance.errors.ts';
import { findClass, readSheet, saveMarks, type AttendanceClass } from './attendance.store.ts';
import { sheetWindow, teachesClass } from './teacher-class.ts';
import { recordThresholdWarnings } from './threshold-warnings.ts';

export type TakeAttendanceInput = TakeAttendanceBody & { eventId: number };

/**
 * `marks` replace each named student's mark whole (a mark without `minutesLate` or `remark` has
 * none); `markRest` marks the roster's students who have no mark after them, never overwriting.
 * Round trips: the class under the subject's lock, the marks compared and written, the standings
 * (and a warning's people, rarely), the commit with the events, the sheet read back.
 */
export async function takeAttendance(ctx: AcademicContext, input: TakeAttendanceInput, actor: Actor): Promise<AttendanceSheetResponse> {
  const { config } = ctx;
  const now = ctx.clock.now();
  const { eventId } = input;
  const saved = await ctx.orm.em.transactional(async (tx) => {
    const event = await findClass(tx, eventId, { timeZone: config.ACADEMY_TIME_ZONE, editDays: config.ATTENDANCE_EDIT_DAYS, now }, { lockSubject: true });
    if (!event) throw eventNotFound();
    if (!teachesClass(actor, event)) throw notEventTeacher(eventId);
    if (!event.opened) throw classNotStarted(event.opensAt);
    if (actor.role !== 'admin' && event.locked) throw attendanceLocked(event.locksAt);
    checkMarks(input, event);

    const changes = await saveMarks(tx, eventId, {
      marks: input.marks.map((mark) => ({ studentId: mark.studentId, status: mark.status, minutesLate: mark.minutesLate ?? null, remark: mark.remark ?? null })),
      rest: input.markRest ? { status: input.markRest, studentIds: event.roster } : undefined,
      byUserId: actor.userId,
      at: now,
    });
    if (changes.length === 0) return { event, changed: 0 };

    recordEvent(
      tx,
      'attendance.recorded',
      {
        eventId,
        subjectId: event.subjectId,
        centerId: event.centerId,
        employeeId: event.employeeId,
        startsAt: event.startsAt,
        byUserId: actor.userId,
        recordedAt: now.toISOString(),
        changes: changes.map((change) => ({ studentId: change.studentId, from: change.from.status, to: change.to.status, minutesLate: change.to.minutesLate, remark: change.to.remark })),
      },
      { source: SOURCE, correlationId: actor.correlationId },
    );
    const settings = { timeZone: config.ACADEMY_TIME_ZONE, thresholdPercent: config.ATTENDANCE_WARNING_PERCENT, minSessions: config.ATTENDANCE_WARNING_MIN_SESSIONS };
    await recordThresholdWarnings(tx, { subjectId: event.subjectId, eventId, studentIds: changes.map((change) => change.studentId), at: now, correlationId: actor.correlationId }, settings);
    return { event, changed: changes.length };
  });
  if (saved.changed) ctx.relay.nudge();
  return { ...(await readSheet(ctx.orm.em, saved.event, saved.changed)), window: sheetWindow(actor, saved.event) };
}

/** Every named student on the roster, every status in the set, `minutesLate` within the class. */
function checkMarks(input: TakeAttendanceBody, event: AttendanceClass): void {
  const roster = new Set(event.roster);
  const offRoster = input.marks.filter((mark) => !roster.has(mark.studentId)).map((mark) => mark.studentId);
  if (offRoster.length) throw studentsNotOnRoster(offRoster);
  const statuses = new Set(event.statuses);
  const unknown = [...new Set([...input.marks.map((mark) => mark.status), ...(input.markRest ? [input.markRest] : [])])].filter((code) => !statuses.has(code));
  if (unknown.length) throw unknownStatuses(unknown);
  const tooLate = input.marks.filter((mark) => (mark.minutesLate ?? 0) > event.classMinutes).map((mark) => mark.studentId);
  if (tooLate.length) throw minutesLateOverClass(tooLate, event.classMinutes);
}
