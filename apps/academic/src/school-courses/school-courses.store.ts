// The SQL of school courses beyond their entity: the lock their writers share, the database's refusals as 409s, and the registrations that keep one.
import type { EntityManager } from '@mikro-orm/postgresql';
import { SchoolCourse } from '../shared/entities/registration.entities.ts';
import { findOr404, refusalAsConflict, type Refusals } from '../shared/records.store.ts';

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
