import type { EntityManager } from '@mikro-orm/postgresql';
import type { AdministrativeListingQuery } from '@academy/contracts';
import { likeContains } from '../shared/records.store.ts';
import { LATEST_SCHOOL_COURSE_SQL } from '../shared/latest-school-course.store.ts';
import type { ListingVersion } from '../shared/listing-cache.ts';

export interface ListingRow {
  total: number;
  id: number | null;
  name: string;
  lastname: string;
  status: string;
  renews: boolean;
}

// The SQL of the administrative listing: the only code of the feature that knows its tables.

/** The listing's version, bumped by the database at the commit of any change to what it shows (outside the request's transaction). */
export async function readListingVersion(em: EntityManager): Promise<ListingVersion | undefined> {
  const [row] = await em.getConnection().execute<ListingVersion[]>(`select epoch, version from listing_versions where name = 'students'`);
  return row;
}

/**
 * GET /api/students/administrative in one SQL statement: the filtered set is counted and one page
 * of it read, newest first (`created_at desc, id desc`, so ties keep a stable order), each row with
 * `renews` = has a registration in the latest school course, whatever `schoolCourseId` filters.
 * Search is case- and accent-insensitive over "name lastname": `search_text` is a stored
 * `student_search_text(name, lastname)` with a trigram index (see the migration).
 */
export async function selectListingPage(em: EntityManager, query: AdministrativeListingQuery): Promise<ListingRow[]> {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (query.search) {
    conditions.push(`s.search_text like search_pattern(?)`);
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
  // The count and the page are two scans of the same filter in one statement, each on its index:
  // the count an index-only scan, the page's ids an index-only walk of `created_at desc, id desc`
  // (cheap to skip for a middle page) or the trigram index; only the page's rows are then read.
  const rows = await em.execute<ListingRow[]>(
    `select counted.total, s.id, s.name, s.lastname, s.status,
            exists (select 1 from registrations r where r.student_id = s.id and r.school_course_id = ${LATEST_SCHOOL_COURSE_SQL}) as renews
       from (select count(*)::int as total from students s ${where}) as counted
       left join lateral (
         select s.id, s.created_at from students s ${where}
          order by s.created_at desc, s.id desc limit ? offset ?
       ) as page on true
       left join students s on s.id = page.id
      order by page.created_at desc, page.id desc`,
    [...params, ...params, query.limit, (query.page - 1) * query.limit],
  );
  return rows;
}
