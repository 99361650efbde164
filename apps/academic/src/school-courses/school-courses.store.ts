// What knows the school courses' table: their entity read and written, the latest course, the lock their writers
// share, the database's refusals as 409s, and the registrations that keep one.
import type { EntityManager, InferEntity } from '@mikro-orm/postgresql';
import { SchoolCourse } from '../shared/entities/registration.entities.ts';
import { latestSchoolCourseId } from '../shared/latest-school-course.store.ts';
import { findOr404, refusalAsConflict, type Refusals } from '../shared/records.store.ts';

type SchoolCourseRow = InferEntity<typeof SchoolCourse>;

/**
 * Runs `work` in one transaction on `em` that first takes the school courses' lock: creations and
 * deletions apply one after the other (so `isLatest` in an answer is exact). What the database
 * refuses (a name taken, a registration inserted meanwhile) is a 409 with `refusals`' messages.
 */
export async function withSchoolCoursesLocked<T>(em: EntityManager, work: (tx: EntityManager) => Promise<T>, refusals?: Refusals): Promise<T> {
  try {
    return await em.transactional(async (tx) => {
      await tx.execute(`select pg_advisory_xact_lock(hashtext('school_courses'))`);
      return work(tx);
    });
  } catch (error) {
    throw refusalAsConflict(error, refusals);
  }
}

/** The school course with this id, or a 404. */
export function findSchoolCourse(tx: EntityManager, id: number) {
  return findOr404(tx, SchoolCourse, id, 'SCHOOL_COURSE_NOT_FOUND', 'School course not found');
}

export async function countRegistrations(tx: EntityManager, schoolCourseId: number): Promise<number> {
  const [{ count }] = await tx.execute<{ count: number }[]>(`select count(*)::int as count from registrations where school_course_id = ?`, [schoolCourseId]);
  return count;
}

/** Every school course, the latest (current) first. */
export function allSchoolCourses(em: EntityManager): Promise<SchoolCourseRow[]> {
  return em.find(SchoolCourse, {}, { orderBy: [{ startDate: 'desc' }, { id: 'desc' }] });
}

/** Inserts a school course (flushed: its id is known) and answers it with the id of the latest course, this one included. */
export async function insertSchoolCourse(tx: EntityManager, fields: { name: string; startDate: string; endDate: string }): Promise<{ course: SchoolCourseRow; latestId: number | null }> {
  const course = tx.create(SchoolCourse, fields);
  await tx.flush();
  return { course, latestId: await latestSchoolCourseId(tx) };
}
