// Taking a class's attendance: check who and when, the roster, the statuses and the minutes; then,
// under the subject's attendance lock, compare with the marks as they are now, write only what
// changes (marks, history, sheet) with `attendance.recorded` and any warning, in one transaction.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AttendanceSheetResponse, TakeAttendanceBody } from '@academy/contracts';
import { recordEvent } from '@academy/messaging';
import { SOURCE } from '../shared/events.ts';
import { isAdmin, type AttendanceActor } from './attendance-actor.ts';
import { attendanceLocked, classNotStarted, eventNotFound, minutesLateOverClass, notEventTeacher, studentsNotOnRoster, unknownStatuses } from './attendance.errors.ts';
import { currentMarks, findClass, knownStatuses, readSheet, writeChanges, type CurrentMark, type MarkChange } from './attendance.store.ts';
import { checkWarnings, type WarningSettings } from './attendance-warnings.ts';

export interface AttendanceSettings extends WarningSettings {
  editDays: number;
}

/** Saves of one subject's classes wait for each other here: no lost mark, no warning seen twice. */
const SUBJECT_LOCK_SQL = `select pg_advisory_xact_lock(hashtext('academic.attendance'), ?)`;

const same = (current: CurrentMark | undefined, mark: MarkChange['to']) =>
  current !== undefined && current.status === mark.status && current.minutesLate === mark.minutesLate && current.remark === mark.remark;

/**
 * `marks` replace each named student's mark whole (a mark without `minutesLate` or `remark` has
 * none); `markRest` marks the roster's students who have no mark after them, never overwriting.
 */
export async function takeAttendance(em: EntityManager, eventId: number, body: TakeAttendanceBody, actor: AttendanceActor, now: Date, settings: AttendanceSettings): Promise<AttendanceSheetResponse> {
  const event = await findClass(em, eventId, { timeZone: settings.timeZone, editDays: settings.editDays, now });
  if (!event) throw eventNotFound();
  if (!isAdmin(actor) && (actor.employeeId === null || event.employeeId !== actor.employeeId)) throw notEventTeacher(eventId);
  if (!event.opened) throw classNotStarted(event.opensAt);
  if (!isAdmin(actor) && event.locked) throw attendanceLocked(event.locksAt);

  const roster = new Set(event.roster);
  const offRoster = body.marks.filter((mark) => !roster.has(mark.studentId)).map((mark) => mark.studentId);
  if (offRoster.length) throw studentsNotOnRoster(offRoster);
  const statuses = await knownStatuses(em);
  const unknown = [...new Set([...body.marks.map((mark) => mark.status), ...(body.markRest ? [body.markRest] : [])])].filter((code) => !statuses.has(code));
  if (unknown.length) throw unknownStatuses(unknown);
  const tooLate = body.marks.filter((mark) => (mark.minutesLate ?? 0) > event.classMinutes).map((mark) => mark.studentId);
  if (tooLate.length) throw minutesLateOverClass(tooLate, event.classMinutes);

  const changed = await em.transactional(async (tx) => {
    await tx.execute(SUBJECT_LOCK_SQL, [event.subjectId]);
    const current = new Map((await currentMarks(tx, eventId)).map((mark) => [mark.studentId, mark]));
    const wanted = new Map<number, MarkChange['to']>(body.marks.map((mark) => [mark.studentId, { status: mark.status, minutesLate: mark.minutesLate ?? null, remark: mark.remark ?? null }]));
    if (body.markRest) {
      for (const studentId of event.roster) if (!wanted.has(studentId) && !current.has(studentId)) wanted.set(studentId, { status: body.markRest, minutesLate: null, remark: null });
    }
    const changes: MarkChange[] = [...wanted]
      .filter(([studentId, mark]) => !same(current.get(studentId), mark))
      .map(([studentId, to]) => {
        const before = current.get(studentId);
        return { studentId, from: { status: before?.status ?? null, minutesLate: before?.minutesLate ?? null, remark: before?.remark ?? null }, to };
      });
    if (changes.length === 0) return 0;

    await writeChanges(tx, eventId, changes, actor.userId, now);
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
    await checkWarnings(tx, { subjectId: event.subjectId, eventId, studentIds: changes.map((change) => change.studentId), at: now, correlationId: actor.correlationId }, settings);
    return changes.length;
  });
  return readSheet(em, event, changed);
}
