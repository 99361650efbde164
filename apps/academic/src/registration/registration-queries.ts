import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError } from '@academy/kit';
import { LATEST_SCHOOL_COURSE_SQL, latestSchoolCourseId } from '../shared/latest-school-course.ts';
import { assertTeachesEvent, type Actor } from './assign-students-to-event.ts';

/** Students registered in a subject at a center (the latest school course unless one is named), any status. */
export async function studentsBySubjectAndCenter(em: EntityManager, query: { subjectId: number; centerId: number; schoolCourseId?: number }) {
  const schoolCourseId = query.schoolCourseId ?? (await latestSchoolCourseId(em));
  const students =
    schoolCourseId === null
      ? []
      : await em.execute<{ studentId: number; registrationId: number; fullName: string; registrationStatus: string; employeeId: number | null }[]>(
          `select s.id as "studentId", r.id as "registrationId", s.name || ' ' || s.lastname as "fullName", r.status as "registrationStatus", r.employee_id as "employeeId"
             from registrations r join students s on s.id = r.student_id
            where r.subject_id = ? and r.center_id = ? and r.school_course_id = ?
            order by s.lastname, s.name, s.id`,
          [query.subjectId, query.centerId, schoolCourseId],
        );
  return { schoolCourseId, students };
}

/** Students assigned to an event, with the status of their registration in its subject and center (latest course). */
export async function studentsAssignedToEvent(em: EntityManager, eventId: number, actor: Actor) {
  const [event] = await em.execute<{ id: number; employeeId: number | null }[]>(`select id, employee_id as "employeeId" from calendar_events where id = ?`, [eventId]);
  if (!event) throw new NotFoundError('EVENT_NOT_FOUND', 'Calendar event not found');
  assertTeachesEvent(actor, event);
  const rows = await em.execute<{ studentId: number; fullName: string; registrationStatus: string | null; assignedAt: Date }[]>(
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
  return { eventId, employeeId: event.employeeId, students: rows.map((row) => ({ ...row, assignedAt: new Date(row.assignedAt).toISOString() })) };
}
