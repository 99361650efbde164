import type { EntityManager } from '@mikro-orm/postgresql';
import { latestSchoolCourseSql } from '@academy/contracts';

/** SQL of the latest (current) school course id: the greatest start date, ties broken by the greatest id (the rule of @academy/contracts). */
export const LATEST_SCHOOL_COURSE_SQL = latestSchoolCourseSql();

export async function latestSchoolCourseId(em: EntityManager): Promise<number | null> {
  const rows = await em.execute<{ id: number }[]>(`select ${LATEST_SCHOOL_COURSE_SQL} as id`);
  return rows[0]?.id ?? null;
}
