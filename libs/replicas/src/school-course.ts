import type { EntityManager } from '@mikro-orm/postgresql';
import { LATEST_SCHOOL_COURSE_ORDER } from '@academy/contracts';

/**
 * SQL of the live school course a request targets: the one named by the parameter, or the current
 * (latest) one when the parameter is null. Two parameters, both the id asked for (or null). A
 * deleted course is never chosen. Usable as a CTE or a subquery: `(${CHOSEN_SCHOOL_COURSE_SQL})`.
 */
export const CHOSEN_SCHOOL_COURSE_SQL = `select id from school_courses where not deleted and (?::int is null or id = ?::int) order by ${LATEST_SCHOOL_COURSE_ORDER} limit 1`;

/** The id of `schoolCourseId` if it is a live course, or of the current course when undefined; null when there is none. */
export async function chosenSchoolCourseId(em: EntityManager, schoolCourseId?: number): Promise<number | null> {
  const id = schoolCourseId ?? null;
  const [row] = await em.getConnection().execute<{ id: number }[]>(CHOSEN_SCHOOL_COURSE_SQL, [id, id], 'all', em.getTransactionContext());
  return row?.id ?? null;
}
