// PUT /api/v2/registration/assign-students-to-event: the body names the desired set of students
// of an event; the difference from the current set decides who is added and removed.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '@academy/auth';
import type { AssignStudentsBody } from '@academy/contracts';
import { recordEvent } from '@academy/messaging';
import type { AcademicContext } from '../shared/academic-context.ts';
import { SOURCE, calendarEventData } from '../shared/events.ts';
import { assertCanTeach } from '../shared/teachers.ts';
import { assertTeachesEvent } from './event-teacher.ts';
import { centerMismatch, employeeIdRequired, employeeNotFound, eventNotFound, notOwnEmployeeId, subjectMismatch } from './registration.errors.ts';
import {
  activeEmployeeExists,
  addEventStudents,
  lockSubjectAssignments,
  removeEventStudents,
  selectCandidates,
  selectEventStudentIds,
  selectRegistrationTeachers,
  setEventTeacher,
  setRegistrationsTeacher,
  syncEmployeeSubjects,
  withEventLocked,
  type AssignedEvent,
  type Candidate,
} from './registration.store.ts';

export const REJECTION_REASONS = {
  notFound: 'Student not found',
  notRegistered: 'Student is not registered in this subject and center for the current school course',
  pending: 'Registration status is pending',
  cancelled: 'Registration is cancelled',
} as const;

/**
 * Rules (spec): 1. a pending registration is never assigned, it is reported in `rejectedStudents`;
 * 2. anyone can be removed whatever their status; 3. the registrations of assigned students get the
 * employee, those of removed students lose it; 4. the employee-subject relation follows.
 *
 * The registration that counts is the student's one in the event's subject and center for the
 * latest school course. Everything runs in one transaction that first locks the event row, so
 * concurrent calls on one event apply one after the other, and a repeated call changes nothing.
 * An admin assigns in any event; a user only in events they teach, and only themselves as `employeeId`.
 */
export async function assignStudentsToEvent(ctx: AcademicContext, input: AssignStudentsBody, actor: Actor) {
  const desired = [...new Set(input.idsStudents)].sort((a, b) => a - b);
  return withEventLocked(ctx.orm.em, input.eventId, async (tx, locked) => {
    const event = await checkEventFor(tx, locked, input, actor);
    const employeeId = await eventTeacher(tx, input, event);
    const current = await selectEventStudentIds(tx, event.id);
    const currentSet = new Set(current);
    const { accepted, rejectedStudents } = judgeCandidates(await selectCandidates(tx, event, desired), currentSet);
    const desiredSet = new Set(desired);
    const toAdd = accepted.filter((candidate) => !currentSet.has(candidate.studentId)).map((candidate) => candidate.studentId);
    const removedStudents = current.filter((studentId) => !desiredSet.has(studentId));

    // Employees whose employee-subject relation may change: the given one and the previous teachers.
    const previousTeachers = await selectRegistrationTeachers(tx, event, [...removedStudents, ...accepted.map((candidate) => candidate.studentId)]);
    const affectedEmployees = [...new Set([employeeId, event.employeeId, ...previousTeachers].filter((id): id is number => id != null))];

    if (toAdd.length) await addEventStudents(tx, event.id, toAdd);
    if (removedStudents.length) await removeEventStudents(tx, event, removedStudents);
    const acceptedRegistrations = accepted.map((candidate) => candidate.registrationId!);
    if (acceptedRegistrations.length) await setRegistrationsTeacher(tx, acceptedRegistrations, employeeId);
    if (event.employeeId !== employeeId) {
      // The class has a new teacher: the timetable replicas hear it with the change.
      recordEvent(tx, 'calendar-event.updated', calendarEventData(await setEventTeacher(tx, event.id, employeeId)), { source: SOURCE });
    }
    await syncEmployeeSubjects(tx, event.subjectId, affectedEmployees);

    const assignedStudents = [...new Set([...current.filter((studentId) => desiredSet.has(studentId)), ...toAdd])].sort((a, b) => a - b);
    return { eventId: event.id, employeeId, assignedStudents, removedStudents, rejectedStudents };
  });
}

/** The locked event, once the caller may assign in it (with that `employeeId`) and the body's subject and center are its own. */
async function checkEventFor(tx: EntityManager, event: AssignedEvent | undefined, input: AssignStudentsBody, actor: Actor): Promise<AssignedEvent> {
  if (!event) throw eventNotFound();
  assertTeachesEvent(actor, event);
  if (actor.role !== 'admin' && input.employeeId !== undefined && input.employeeId !== actor.employeeId) throw notOwnEmployeeId();
  await lockSubjectAssignments(tx, event.subjectId);
  if (input.subjectId !== undefined && input.subjectId !== event.subjectId) throw subjectMismatch(input.subjectId, event.id);
  if (input.centerId !== undefined && input.centerId !== event.centerId) throw centerMismatch(input.centerId, event.id);
  return event;
}

/** The event's teacher after the call: the one given (who must be able to teach), else the event's own (who must still be active). */
async function eventTeacher(tx: EntityManager, input: AssignStudentsBody, event: AssignedEvent): Promise<number> {
  const employeeId = input.employeeId ?? event.employeeId;
  if (employeeId == null) throw employeeIdRequired();
  if (employeeId !== event.employeeId) await assertCanTeach(tx, employeeId);
  else if (!(await activeEmployeeExists(tx, employeeId))) throw employeeNotFound();
  return employeeId;
}

/** The candidates who can be assigned, and those refused with a reason; a student already in the event stays when asked to (the desired state holds, nothing is assigned). */
function judgeCandidates(candidates: Candidate[], current: Set<number>): { accepted: Candidate[]; rejectedStudents: { studentId: number; reason: string }[] } {
  const accepted: Candidate[] = [];
  const rejectedStudents: { studentId: number; reason: string }[] = [];
  for (const candidate of candidates) {
    const reason = rejectionOf(candidate);
    if (reason && !current.has(candidate.studentId)) rejectedStudents.push({ studentId: candidate.studentId, reason });
    else if (!reason) accepted.push(candidate);
  }
  return { accepted, rejectedStudents };
}

const rejectionOf = (candidate: Candidate): string | null =>
  !candidate.exists
    ? REJECTION_REASONS.notFound
    : candidate.registrationId === null
      ? REJECTION_REASONS.notRegistered
      : candidate.status === 'pending'
        ? REJECTION_REASONS.pending
        : candidate.status === 'cancelled'
          ? REJECTION_REASONS.cancelled
          : null;
