// Taking a class's attendance, in one transaction under the subject's attendance lock: check who and
// when, the roster, the statuses and the minutes; compare with the marks as they are now and write
// only what changes (marks, history, sheet), with `attendance.recorded` and any warning.
import type { EntityManager } from '@mikro-orm/postgresql';
import { createEnvelope, type AttendanceSheetResponse, type TakeAttendanceBody } from '@academy/contracts';
import { SOURCE } from '../shared/events.ts';
import { isAdmin, type AttendanceActor } from './attendance-actor.ts';
import { attendanceLocked, classNotStarted, eventNotFound, minutesLateOverClass, notEventTeacher, studentsNotOnRoster, unknownStatuses } from './attendance.errors.ts';
import { findClass, readSheet, saveMarks } from './attendance.store.ts';
import { checkWarnings, type WarningSettings } from './attendance-warnings.ts';

export interface AttendanceSettings extends WarningSettings {
  editDays: number;
}

/**
 * `marks` replace each named student's mark whole (a mark without `minutesLate` or `remark` has
 * none); `markRest` marks the roster's students who have no mark after them, never overwriting.
 * Round trips: the class under the subject's lock, the marks compared and written, the standings
 * with the save's event (and a warning's, rarely), the commit, the sheet read back.
 */
export async function takeAttendance(em: EntityManager, eventId: number, body: TakeAttendanceBody, actor: AttendanceActor, now: Date, settings: AttendanceSettings): Promise<AttendanceSheetResponse> {
  const saved = await em.transactional(async (tx) => {
    const event = await findClass(tx, eventId, { timeZone: settings.timeZone, editDays: settings.editDays, now }, { lockSubject: true });
    if (!event) throw eventNotFound();
    if (!isAdmin(actor) && (actor.employeeId === null || event.employeeId !== actor.employeeId)) throw notEventTeacher(eventId);
    if (!event.opened) throw classNotStarted(event.opensAt);
    if (!isAdmin(actor) && event.locked) throw attendanceLocked(event.locksAt);

    const roster = new Set(event.roster);
    const offRoster = body.marks.filter((mark) => !roster.has(mark.studentId)).map((mark) => mark.studentId);
    if (offRoster.length) throw studentsNotOnRoster(offRoster);
    const statuses = new Set(event.statuses);
    const unknown = [...new Set([...body.marks.map((mark) => mark.status), ...(body.markRest ? [body.markRest] : [])])].filter((code) => !statuses.has(code));
    if (unknown.length) throw unknownStatuses(unknown);
    const tooLate = body.marks.filter((mark) => (mark.minutesLate ?? 0) > event.classMinutes).map((mark) => mark.studentId);
    if (tooLate.length) throw minutesLateOverClass(tooLate, event.classMinutes);

    const changes = await saveMarks(tx, eventId, {
      marks: body.marks.map((mark) => ({ studentId: mark.studentId, status: mark.status, minutesLate: mark.minutesLate ?? null, remark: mark.remark ?? null })),
      rest: body.markRest ? { status: body.markRest, studentIds: event.roster } : undefined,
      byUserId: actor.userId,
      at: now,
    });
    if (changes.length === 0) return { event, changed: 0 };

    const recorded = createEnvelope(
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
    await checkWarnings(tx, { subjectId: event.subjectId, eventId, studentIds: changes.map((change) => change.studentId), at: now, correlationId: actor.correlationId }, settings, [recorded]);
    return { event, changed: changes.length };
  });
  return readSheet(em, saved.event, saved.changed);
}
