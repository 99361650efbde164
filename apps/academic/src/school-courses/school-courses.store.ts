// The SQL of school courses beyond their entity: the lock their writers share, and the registrations that keep one.
import type { EntityManager } from '@mikro-orm/postgresql';

/** One writer of courses at a time, for the transaction (so `isLatest` in an answer is exact). */
export async function lockSchoolCourses(tx: EntityManager): Promise<void> {
  await tx.execute(`select pg_advisory_xact_lock(hashtext('school_courses'))`);
}

export async function countRegistrations(tx: EntityManager, schoolCourseId: number): Promise<number> {
  const [{ count }] = await tx.execute<{ count: number }[]>(`select count(*)::int as count from registrations where school_course_id = ?`, [schoolCourseId]);
  return count;
}
