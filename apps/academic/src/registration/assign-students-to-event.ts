// PUT /api/v2/registration/assign-students-to-event: the body names the desired set of students
// of an event; the difference from the current set decides who is added and removed.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AssignStudentsBody } from '@academy/contracts';
import { pgArray } from '@academy/db';
import { BadRequestError, ForbiddenError, NotFoundError } from '@academy/kit';
import { recordEvent } from '@academy/messaging';
import { SOURCE, calendarEventData } from '../shared/events.ts';
import { LATEST_SCHOOL_COURSE_SQL } from '../shared/latest-school-course.ts';
import { assertCanTeach } from '../shared/teachers.ts';

export const REJECTION_REASONS = {
  notFound: 'Student not found',
  notRegistered: 'Student is not registered in this subject and center for the current school course',
  pending: 'Registration status is pending',
  cancelled: 'Registration is cancelled',
} as const;

interface Candidate {
  studentId: number;
  registrationId: number | null;
  status: string | null;
  exists: boolean;
}

/**
 * Rules (spec): 1. a pending registration is never assigned, it is reported in `rejectedStudents`;
 * 2. anyone can be removed whatever their status; 3. the registrations of assigned students get the
 * employee, those of removed students lose it; 4. the employee-subject relation follows.
 *
 * The registration that counts is the student's one in the event's subject and center for the
 * latest school course. Everything runs in one transaction that first locks the event row, so
 * concurrent calls on one event apply one after the other, and a repeated call changes nothing.
 */
/** Who calls: an admin assigns in any event; a user only in events they teach, and only themselves as `employeeId`. */
export interface Actor {
  role: 'admin' | 'user';
  employeeId?: number;
}

/** Object-level authorization of an event's students (assigning or reading them): admins, or the event's own teacher. */
export function assertTeachesEvent(actor: Actor, event: { id: number; employeeId: number | null }): void {
  if (actor.role === 'admin') return;
  if (actor.employeeId === undefined || event.employeeId !== actor.employeeId) throw new ForbiddenError(`Only the teacher of event ${event.id} or an admin may do this`, 'NOT_EVENT_TEACHER');
}

export async function assignStudentsToEvent(em: EntityManager, body: AssignStudentsBody, actor: Actor) {
  const desired = [...new Set(body.idsStudents)].sort((a, b) => a - b);
  return em.transactional(async (tx) => {
    const [event] = await tx.execute<{ id: number; subjectId: number; centerId: number; employeeId: number | null }[]>(
      `select id, subject_id as "subjectId", center_id as "centerId", employee_id as "employeeId" from calendar_events where id = ? for update`,
      [body.eventId],
    );
    if (!event) throw new NotFoundError('EVENT_NOT_FOUND', 'Calendar event not found');
    assertTeachesEvent(actor, event);
    if (actor.role !== 'admin' && body.employeeId !== undefined && body.employeeId !== actor.employeeId) {
      throw new ForbiddenError('A teacher may only assign themselves as employeeId', 'NOT_OWN_EMPLOYEE_ID');
    }
    // Everything below touches only this subject's registrations and employee-subject rows: calls on
    // other events of the same subject wait here, so their row locks can never be taken in crossed order.
    await tx.execute(`select pg_advisory_xact_lock(hashtext('academic.assign-students-to-event'), ?)`, [event.subjectId]);
    if (body.subjectId !== undefined && body.subjectId !== event.subjectId) {
      throw new BadRequestError('SUBJECT_MISMATCH', `subjectId ${body.subjectId} is not the subject of event ${event.id}`);
    }
    if (body.centerId !== undefined && body.centerId !== event.centerId) {
      throw new BadRequestError('CENTER_MISMATCH', `centerId ${body.centerId} is not the center of event ${event.id}`);
    }
    const employeeId = body.employeeId ?? event.employeeId;
    if (employeeId == null) throw new BadRequestError('EMPLOYEE_ID_REQUIRED', 'employeeId is required: the event has no employee');
    if (employeeId !== event.employeeId) await assertCanTeach(tx, employeeId);
    else {
      const [employee] = await tx.execute(`select id from employees where id = ? and active`, [employeeId]);
      if (!employee) throw new NotFoundError('EMPLOYEE_NOT_FOUND', 'Employee not found');
    }

    const current = (await tx.execute<{ studentId: number }[]>(`select student_id as "studentId" from event_students where event_id = ? order by student_id`, [event.id])).map(
      (row) => row.studentId,
    );
    const currentSet = new Set(current);
    const candidates = await tx.execute<Candidate[]>(
      `select wanted.id as "studentId", r.id as "registrationId", r.status, s.id is not null as "exists"
         from unnest(?::int[]) as wanted(id)
         left join students s on s.id = wanted.id
         left join registrations r on r.student_id = s.id and r.subject_id = ? and r.center_id = ? and r.school_course_id = ${LATEST_SCHOOL_COURSE_SQL}
        order by wanted.id`,
      [pgArray(desired), event.subjectId, event.centerId],
    );

    const accepted: Candidate[] = [];
    const rejectedStudents: { studentId: number; reason: string }[] = [];
    for (const candidate of candidates) {
      const reason = !candidate.exists
        ? REJECTION_REASONS.notFound
        : candidate.registrationId === null
          ? REJECTION_REASONS.notRegistered
          : candidate.status === 'pending'
            ? REJECTION_REASONS.pending
            : candidate.status === 'cancelled'
              ? REJECTION_REASONS.cancelled
              : null;
      // A student already in the event stays when asked to: the desired state holds, nothing is assigned.
      if (reason && !currentSet.has(candidate.studentId)) rejectedStudents.push({ studentId: candidate.studentId, reason });
      else if (!reason) accepted.push(candidate);
    }
    const desiredSet = new Set(desired);
    const toAdd = accepted.filter((candidate) => !currentSet.has(candidate.studentId)).map((candidate) => candidate.studentId);
    const removedStudents = current.filter((studentId) => !desiredSet.has(studentId));

    // Employees whose employee-subject relation may change: the given one and the previous teachers.
    const previousTeachers = await tx.execute<{ employeeId: number }[]>(
      `select distinct employee_id as "employeeId" from registrations
        where employee_id is not null and subject_id = ? and center_id = ? and school_course_id = ${LATEST_SCHOOL_COURSE_SQL} and student_id = any(?::int[])`,
      [event.subjectId, event.centerId, pgArray([...removedStudents, ...accepted.map((candidate) => candidate.studentId)])],
    );
    const affectedEmployees = [...new Set([employeeId, event.employeeId, ...previousTeachers.map((row) => row.employeeId)].filter((id): id is number => id != null))];

    if (toAdd.length) {
      await tx.execute(`insert into event_students (event_id, student_id, assigned_at) select ?, unnest(?::int[]), now() on conflict do nothing`, [event.id, pgArray(toAdd)]);
    }
    if (removedStudents.length) {
      await tx.execute(`delete from event_students where event_id = ? and student_id = any(?::int[])`, [event.id, pgArray(removedStudents)]);
      await tx.execute(
        `update registrations set employee_id = null, updated_at = now()
          where subject_id = ? and center_id = ? and school_course_id = ${LATEST_SCHOOL_COURSE_SQL} and student_id = any(?::int[]) and employee_id is not null`,
        [event.subjectId, event.centerId, pgArray(removedStudents)],
      );
    }
    const acceptedRegistrations = accepted.map((candidate) => candidate.registrationId!);
    if (acceptedRegistrations.length) {
      await tx.execute(`update registrations set employee_id = ?, updated_at = now() where id = any(?::int[]) and employee_id is distinct from ?`, [
        employeeId,
        pgArray(acceptedRegistrations),
        employeeId,
      ]);
    }
    if (event.employeeId !== employeeId) {
      const [changed] = await tx.execute<{ id: number; subjectId: number; centerId: number; employeeId: number; startsAt: Date; endsAt: Date }[]>(
        `update calendar_events set employee_id = ?, updated_at = now() where id = ?
         returning id, subject_id as "subjectId", center_id as "centerId", employee_id as "employeeId", starts_at as "startsAt", ends_at as "endsAt"`,
        [employeeId, event.id],
      );
      // The class has a new teacher: the timetable replicas hear it with the change.
      recordEvent(tx, 'calendar-event.updated', calendarEventData(changed!), { source: SOURCE });
    }

    // Rule 4: an employee teaches a subject while any registration of it has them as teacher.
    await tx.execute(
      `insert into employee_subjects (employee_id, subject_id, created_at)
         select distinct r.employee_id, r.subject_id, now() from registrations r where r.subject_id = ? and r.employee_id = any(?::int[])
       on conflict do nothing`,
      [event.subjectId, pgArray(affectedEmployees)],
    );
    await tx.execute(
      `delete from employee_subjects es where es.subject_id = ? and es.employee_id = any(?::int[])
          and not exists (select 1 from registrations r where r.subject_id = es.subject_id and r.employee_id = es.employee_id)`,
      [event.subjectId, pgArray(affectedEmployees)],
    );

    const assignedStudents = [...new Set([...current.filter((studentId) => desiredSet.has(studentId)), ...toAdd])].sort((a, b) => a - b);
    return { eventId: event.id, employeeId, assignedStudents, removedStudents, rejectedStudents };
  });
}
