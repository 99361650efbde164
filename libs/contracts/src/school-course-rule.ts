/**
 * "The latest (current) school course": the greatest start date, ties broken by the greatest id;
 * a deleted course never counts. This file is the one statement of the rule in the repo: academic
 * applies it to its own `school_courses` table and every replica (`@academy/replicas`) to its copy.
 */

/** SQL `order by` over a table with `start_date` and `id` columns: the latest course first. */
export const LATEST_SCHOOL_COURSE_ORDER = 'start_date desc nulls last, id desc';

/**
 * A scalar subquery giving the latest course's id over `school_courses` (null when there is none).
 * `where` narrows the candidates, e.g. `not deleted` on a replica that keeps tombstones.
 */
export function latestSchoolCourseSql(where?: string): string {
  return `(select id from school_courses${where ? ` where ${where}` : ''} order by ${LATEST_SCHOOL_COURSE_ORDER} limit 1)`;
}
