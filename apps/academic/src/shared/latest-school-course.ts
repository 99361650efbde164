import type { EntityManager } from '@mikro-orm/postgresql';

/** SQL of the latest (current) school course id: the greatest start date, ties broken by the greatest id. */
export const LATEST_SCHOOL_COURSE_SQL = `(select id from school_courses order by start_date desc, id desc limit 1)`;

export async function latestSchoolCourseId(em: EntityManager): Promise<number | null> {
  const rows = await em.execute<{ id: number }[]>(`select ${LATEST_SCHOOL_COURSE_SQL} as id`);
  return rows[0]?.id ?? null;
}
