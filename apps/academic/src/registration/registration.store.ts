// The SQL of event assignment: the only code of the feature that knows its tables (calendar_events,
// event_students, registrations, employee_subjects, students, employees).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { REGISTRATION_STATUS_VALUES } from '@academy/contracts';
import { pgArray } from '@academy/db';
import { LATEST_SCHOOL_COURSE_SQL } from '../shared/latest-school-course.store.ts';

/** The current school course's id, for the feature's use cases (the rule's SQL stays in its shared store). */
export { latestSchoolCourseId } from '../shared/latest-school-course.store.ts';

type RegistrationStatus = (typeof REGISTRATION_STATUS_VALUES)[number];

export interface AssignedEvent {
  id: number;
  subjectId: number;
  centerId: number;
  employeeId: number | null;
}

/** The event, its row locked for the transaction (calls on one event apply one after the other). */
/**
 * Runs `work` in one transaction on `em` that first locks the event's row (`undefined`: no such
 * event): concurrent changes of one event apply one after the other.
 */
export function withEventLocked<T>(em: EntityManager, eventId: number, work: (tx: EntityManager, event: AssignedEvent | undefined) => Promise<T>): Promise<T> {
  return em.transactional(async (tx) => {
    const [event] = await tx.execute<AssignedEvent[]>(
      `select id, subject_id as "subjectId", center_id as "centerId", employee_id as "employeeId" from calendar_events where id = ? for update`,
      [eventId],
    );
    return work(tx, event);
  });
}

/**
 * Everything an assignment changes touches only its subject's registrations and employee-subject
 * rows: calls on other events of the same subject wait here, so their row locks can never be taken
 * in crossed order.
 */
export async function lockSubjectAssignments(tx: EntityManager, subjectId: number): Promise<void> {
  await tx.execute(`select pg_advisory_xact_lock(hashtext('academic.assign-students-to-event'), ?)`, [subjectId]);
}

export async function activeEmployeeExists(tx: EntityManager, employeeId: number): Promise<boolean> {
  const [employee] = await tx.execute(`select id from employees where id = ? and active`, [employeeId]);
  return employee !== undefined;
}

/** The students in the event, by id. */
export async function selectEventStudentIds(tx: EntityManager, eventId: number): Promise<number[]> {
  const rows = await tx.execute<{ studentId: number }[]>(`select student_id as "studentId" from event_students where event_id = ? order by student_id`, [eventId]);
  return rows.map((row) => row.studentId);
}

/** A student asked for: whether they exist, and their registration in the event's subject and center for the latest course (if any). */
export interface Candidate {
  studentId: number;
  registrationId: number | null;
  status: string | null;
  exists: boolean;
}

export async function selectCandidates(tx: EntityManager, event: AssignedEvent, studentIds: number[]): Promise<Candidate[]> {
  return tx.execute<Candidate[]>(
    `select wanted.id as "studentId", r.id as "registrationId", r.status, s.id is not null as "exists"
       from unnest(?::int[]) as wanted(id)
       left join students s on s.id = wanted.id
       left join registrations r on r.student_id = s.id and r.subject_id = ? and r.center_id = ? and r.school_course_id = ${LATEST_SCHOOL_COURSE_SQL}
      order by wanted.id`,
    [pgArray(studentIds), event.subjectId, event.centerId],
  );
}

/** The teachers the students' registrations in the event's subject and center (latest course) name now. */
export async function selectRegistrationTeachers(tx: EntityManager, event: AssignedEvent, studentIds: number[]): Promise<number[]> {
  const rows = await tx.execute<{ employeeId: number }[]>(
    `select distinct employee_id as "employeeId" from registrations
      where employee_id is not null and subject_id = ? and center_id = ? and school_course_id = ${LATEST_SCHOOL_COURSE_SQL} and student_id = any(?::int[])`,
    [event.subjectId, event.centerId, pgArray(studentIds)],
  );
  return rows.map((row) => row.employeeId);
}

export async function addEventStudents(tx: EntityManager, eventId: number, studentIds: number[]): Promise<void> {
  await tx.execute(`insert into event_students (event_id, student_id, assigned_at) select ?, unnest(?::int[]), now() on conflict do nothing`, [eventId, pgArray(studentIds)]);
}

/** Takes the students out of the event; their registrations in its subject and center (latest course) lose their teacher. */
export async function removeEventStudents(tx: EntityManager, event: AssignedEvent, studentIds: number[]): Promise<void> {
  await tx.execute(`delete from event_students where event_id = ? and student_id = any(?::int[])`, [event.id, pgArray(studentIds)]);
  await tx.execute(
    `update registrations set employee_id = null, updated_at = now()
      where subject_id = ? and center_id = ? and school_course_id = ${LATEST_SCHOOL_COURSE_SQL} and student_id = any(?::int[]) and employee_id is not null`,
    [event.subjectId, event.centerId, pgArray(studentIds)],
  );
}

export async function setRegistrationsTeacher(tx: EntityManager, registrationIds: number[], employeeId: number): Promise<void> {
  await tx.execute(`update registrations set employee_id = ?, updated_at = now() where id = any(?::int[]) and employee_id is distinct from ?`, [employeeId, pgArray(registrationIds), employeeId]);
}

/** The event's new teacher; answers the class's whole state (what its event carries). */
export async function setEventTeacher(tx: EntityManager, eventId: number, employeeId: number) {
  const [changed] = await tx.execute<{ id: number; subjectId: number; centerId: number; employeeId: number; startsAt: Date; endsAt: Date }[]>(
    `update calendar_events set employee_id = ?, updated_at = now() where id = ?
     returning id, subject_id as "subjectId", center_id as "centerId", employee_id as "employeeId", starts_at as "startsAt", ends_at as "endsAt"`,
    [employeeId, eventId],
  );
  return changed!;
}

/** Rule 4: an employee teaches a subject while any registration of it has them as teacher; brought in line for `employeeIds`. */
export async function syncEmployeeSubjects(tx: EntityManager, subjectId: number, employeeIds: number[]): Promise<void> {
  await tx.execute(
    `insert into employee_subjects (employee_id, subject_id, created_at)
       select distinct r.employee_id, r.subject_id, now() from registrations r where r.subject_id = ? and r.employee_id = any(?::int[])
     on conflict do nothing`,
    [subjectId, pgArray(employeeIds)],
  );
  await tx.execute(
    `delete from employee_subjects es where es.subject_id = ? and es.employee_id = any(?::int[])
        and not exists (select 1 from registrations r where r.subject_id = es.subject_id and r.employee_id = es.employee_id)`,
    [subjectId, pgArray(employeeIds)],
  );
}

/** Students registered in a subject at a center for a course, any status. */
export async function selectRegisteredStudents(em: EntityManager, filter: { subjectId: number; centerId: number; schoolCourseId: number }) {
  return em.execute<{ studentId: number; registrationId: number; fullName: string; registrationStatus: RegistrationStatus; employeeId: number | null }[]>(
    `select s.id as "studentId", r.id as "registrationId", s.name || ' ' || s.lastname as "fullName", r.status as "registrationStatus", r.employee_id as "employeeId"
       from registrations r join students s on s.id = r.student_id
      where r.subject_id = ? and r.center_id = ? and r.school_course_id = ?
      order by s.lastname, s.name, s.id`,
    [filter.subjectId, filter.centerId, filter.schoolCourseId],
  );
}

export async function findEvent(em: EntityManager, eventId: number): Promise<{ id: number; employeeId: number | null } | undefined> {
  const [event] = await em.execute<{ id: number; employeeId: number | null }[]>(`select id, employee_id as "employeeId" from calendar_events where id = ?`, [eventId]);
  return event;
}

/** The students in an event with the status of their registration in its subject and center (latest course). */
export async function selectEventStudents(em: EntityManager, eventId: number) {
  return em.execute<{ studentId: number; fullName: string; registrationStatus: RegistrationStatus | null; assignedAt: Date }[]>(
    `select s.id as "studentId", s.name || ' ' || s.lastname as "fullName", r.status as "registrationStatus", es.assigned_at as "assignedAt"
       from event_students es
       join calendar_events e on e.id = es.event_id
       join students s on s.id = es.student_id
       left join registrations r on r.student_id = s.id and r.subject_id = e.subject_id and r.center_id = e.center_id
            and r.school_course_id = ${LATEST_SCHOOL_COURSE_SQL}
      where es.event_id = ?
      order by s.lastname, s.name, s.id`,
    [eventId],
  );
}
