import type { EntityManager } from '@mikro-orm/postgresql';
import type { AdministrativeListingQuery } from '@academy/contracts';
import { likeContains, pageMeta } from './sql.ts';
import { LATEST_SCHOOL_COURSE_SQL } from './school-courses.ts';

interface Row {
  total: number;
  id: number | null;
  name: string;
  lastname: string;
  status: string;
  renews: boolean;
}

/**
 * GET /api/students/administrative in one SQL statement: the filtered set is counted and one page
 * of it read, newest first (`created_at desc, id desc`, so ties keep a stable order), each row with
 * `renews` = has a registration in the latest school course, whatever `schoolCourseId` filters.
 * Search is case- and accent-insensitive over "name lastname" (trigram index on
 * `student_search_text`, see the migration).
 */
export async function administrativeListing(em: EntityManager, query: AdministrativeListingQuery) {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (query.search) {
    conditions.push(`student_search_text(s.name, s.lastname) like search_pattern(?)`);
    params.push(likeContains(query.search));
  }
  if (query.status) {
    conditions.push(`s.status = ?`);
    params.push(query.status);
  }
  if (query.subjectId !== undefined || query.schoolCourseId !== undefined) {
    const registration: string[] = ['r.student_id = s.id'];
    if (query.subjectId !== undefined) {
      registration.push('r.subject_id = ?');
      params.push(query.subjectId);
    }
    if (query.schoolCourseId !== undefined) {
      registration.push('r.school_course_id = ?');
      params.push(query.schoolCourseId);
    }
    conditions.push(`exists (select 1 from registrations r where ${registration.join(' and ')})`);
  }
  const where = conditions.length ? `where ${conditions.join(' and ')}` : '';
  const rows = await em.execute<Row[]>(
    `with filtered as (select s.id, s.created_at from students s ${where}),
          latest as (select ${LATEST_SCHOOL_COURSE_SQL} as id),
          page as (select id, created_at from filtered order by created_at desc, id desc limit ? offset ?)
     select (select count(*)::int from filtered) as total, s.id, s.name, s.lastname, s.status,
            exists (select 1 from registrations r, latest where r.student_id = s.id and r.school_course_id = latest.id) as renews
       from (select 1) as one
       left join page on true
       left join students s on s.id = page.id
      order by page.created_at desc, page.id desc`,
    [...params, query.limit, (query.page - 1) * query.limit],
  );
  const totalItems = rows[0]?.total ?? 0;
  const data = rows.filter((row) => row.id !== null).map((row) => ({ id: row.id!, name: row.name, lastname: row.lastname, status: row.status, renews: row.renews }));
  return { data, meta: pageMeta(totalItems, query.page, query.limit) };
}
