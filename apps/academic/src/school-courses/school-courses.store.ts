// The SQL of school courses beyond their entity: the lock their writers share, and the registrations that keep one.
import type { EntityManager } from '@mikro-orm/postgresql';

/** One writer of courses at a time, for the transaction (so `isLatest` in an answer is exact). */
/** Runs `work` in one transaction on `em` that first takes the school courses' lock: creations and deletions apply one after the other. */
export function withSchoolCoursesLocked<T>(em: EntityManager, work: (tx: EntityManager) => Promise<T>): Promise<T> {
  return em.transactional(async (tx) => {
    await tx.execute(`select pg_advisory_xact_lock(hashtext('school_courses'))`);
    return work(tx);
  });
}

export async function countRegistrations(tx: EntityManager, schoolCourseId: number): Promise<number> {
  const [{ count }] = await tx.execute<{ count: number }[]>(`select count(*)::int as count from registrations where school_course_id = ?`, [schoolCourseId]);
  return count;
}
