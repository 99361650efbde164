// The SQL of blocks: the only code of the feature that knows its tables (blocks, student_blocks,
// student_block_messages, pending_digests) and how it reads students, subjects, registrations and
// the people a review or a digest goes to. The pending-queue queries are those of bench:blocks.
import type { Readable } from 'node:stream';
import type { EntityManager, PostgreSqlConnection } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';
import QueryStream from 'pg-query-stream';
import type { CompletedBlocksQuery, EventData, Locale, PendingBlocksQuery, PendingCountQuery, PendingCursor, PendingRejectedQuery, StudentBlockStatus } from '@academy/contracts';
import { numberedPlaceholders, Sql } from '@academy/db';
import { outboxInsertSql } from '@academy/messaging';
import type { KeyColumns, StatementKey } from '@academy/service';
import { LATEST_SCHOOL_COURSE_SQL } from '../shared/latest-school-course.store.ts';

/** The current school course's id, for the feature's use cases (the rule's SQL stays in its shared store). */
export { latestSchoolCourseId } from '../shared/latest-school-course.store.ts';
import { pendingAnswerJson, type PendingRow } from './pending-answer.ts';

/** `name lastname`, trimmed, of a table alias with those columns (null when the row is missing). */
const fullNameSql = (alias: string) => `nullif(trim(${alias}.name || ' ' || ${alias}.lastname), '')`;

/**
 * SQL condition, true when the employee given as its one `?` parameter teaches the student
 * `studentColumn` in the subject `subjectColumn` (a registration not cancelled names them). A null
 * employee teaches no one.
 */
const teachesSql = (studentColumn: string, subjectColumn: string) =>
  `exists (select 1 from registrations r where r.student_id = ${studentColumn} and r.subject_id = ${subjectColumn} and r.employee_id = ? and r.status <> 'cancelled')`;

/** SQL scalar: the teacher of the student's registration in the subject in the latest course they have one (not cancelled), or null. */
const registrationTeacherSql = (studentColumn: string, subjectColumn: string) =>
  `(select r.employee_id from registrations r join school_courses c on c.id = r.school_course_id
     where r.student_id = ${studentColumn} and r.subject_id = ${subjectColumn} and r.status <> 'cancelled' and r.employee_id is not null
     order by c.start_date desc, c.id desc limit 1)`;

/**
 * A statement run as a named prepared statement on MikroORM's own `pg` pool (`Sql`: planned once per
 * connection, not on every request), or in the transaction `em` carries. For the statements a request
 * runs most: the pending page and the review. Their texts vary only with the filters given.
 */
function prepared<T>(em: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  return new Sql(em).query<T>(numberedPlaceholders(sql), params);
}

// ---------------------------------------------------------------- listings
/** `and <condition>` for each filter given, with its parameters in order. */
function filters(given: [condition: string, value: number | string | undefined][]) {
  const present = given.filter(([, value]) => value !== undefined);
  return { sql: present.map(([condition]) => ` and ${condition}`).join(''), params: present.map(([, value]) => value) };
}

/** SQL: a timestamptz column as an ISO instant in UTC (`…Z`, milliseconds), as `isoTime` writes it. */
const isoSql = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** SQL: the close time of a cursor, given as its `?` (exact: microseconds below 2^53). */
const CURSOR_TIME_SQL = `(timestamptz 'epoch' + ?::bigint * interval '1 microsecond')`;

/** The columns of a pending block a page shows, all on the partial index `(block_id, closed_at, id) INCLUDE (student_id, grade, employee_id)`. */
const PAGE_COLUMNS = 'id, closed_at, student_id, grade, employee_id';

/**
 * SQL: one run of pending blocks (`where`: more conditions), oldest close first (`closed_at` nulls
 * last, then id), after the cursor, at most `take` (null: all), with `columns`: a range of the partial index that
 * `where` picks (the close time and id are its last columns), read from the cursor on. Blocks without
 * a close time (none is pending without one, but the order places them last) are a second, empty range.
 */
function pendingRun(where: { sql: string; params: unknown[] }, after: PendingCursor | undefined, take: number | null, columns = 'id, closed_at'): { sql: string; params: unknown[] } {
  const branches: string[] = [];
  const params: unknown[] = [];
  const from = `select ${columns} from student_blocks where status = 'pending'${where.sql}`;
  if (after?.closedAtMicros !== null) {
    branches.push(`(${from} and closed_at is not null${after ? ` and (closed_at, id) > (${CURSOR_TIME_SQL}, ?)` : ''} order by closed_at, id limit ?::int)`);
    params.push(...where.params, ...(after ? [after.closedAtMicros, after.id] : []), take);
  }
  const amongNone = after?.closedAtMicros === null;
  branches.push(`(${from} and closed_at is null${amongNone ? ' and id > ?' : ''} order by closed_at, id limit ?::int)`);
  params.push(...where.params, ...(amongNone ? [after.id] : []), take);
  return { sql: branches.join(' union all '), params };
}

/** A page (`limit`), or one student's whole listing (`studentId` without `limit`: a student's blocks, never the queue). */
export type PendingPageQuery = PendingBlocksQuery & ({ limit: number } | { limit?: undefined; studentId: number });

/** The columns of a pending block a student's page shows, all on the partial index `(student_id, closed_at, id) INCLUDE (block_id, grade, employee_id)`. */
const STUDENT_PAGE_COLUMNS = `${PAGE_COLUMNS}, block_id`;

/**
 * The rows of a page (`PAGE_COLUMNS`, `block_id`, `block_name`, `subject_id`), oldest close first, from
 * the cursor (`after`) or skipping the pages before (`page`); without `limit` (a student's), all of them.
 * A subject's page merges the runs of its blocks on their covering index (each read from the cursor for
 * at most a page: a few blocks a subject, so a page reads at most blocks × page entries, however deep),
 * every column it shows taken from the index and from the subject's block rows it starts from: no row of
 * `student_blocks` or `blocks` is read again. A student's page reads its run of the student's covering
 * index, then the blocks' rows for their names. Other pages pick their ids on the pending index, then
 * read those rows.
 */
function pendingPage(query: PendingPageQuery): { sql: string; params: unknown[] } {
  const limit = query.limit ?? null;
  const skip = query.after === undefined && limit !== null ? limit * ((query.page ?? 1) - 1) : 0;
  const take = limit === null ? null : skip + limit;
  // `limit null` is no limit: a student's whole listing.
  const page = { sql: 'order by closed_at asc nulls last, id asc limit ?::int offset ?::int', params: [limit, skip] };
  if (query.subjectId !== undefined && query.studentId === undefined) {
    const run = pendingRun({ sql: ' and block_id = b.id', params: [] }, query.after, take, PAGE_COLUMNS);
    return {
      sql: `select r.*, b.id as block_id, b.name as block_name, b.subject_id from blocks b cross join lateral (${run.sql}) r where b.subject_id = ? ${page.sql}`,
      params: [...run.params, query.subjectId, ...page.params],
    };
  }
  if (query.studentId !== undefined) {
    const where = filters([
      ['student_id = ?', query.studentId],
      ['block_id in (select id from blocks where subject_id = ?)', query.subjectId],
    ]);
    const run = pendingRun(where, query.after, take, STUDENT_PAGE_COLUMNS);
    return {
      sql: `select r.*, b.name as block_name, b.subject_id from (select * from (${run.sql}) r ${page.sql}) r join blocks b on b.id = r.block_id`,
      params: [...run.params, ...page.params],
    };
  }
  const run = pendingRun({ sql: '', params: [] }, query.after, take);
  return {
    sql: `select sb.id, sb.closed_at, sb.student_id, sb.grade, sb.employee_id, b.id as block_id, b.name as block_name, b.subject_id
            from (select id from (${run.sql}) r ${page.sql}) ids join student_blocks sb on sb.id = ids.id join blocks b on b.id = sb.block_id`,
    params: [...run.params, ...page.params],
  };
}

/** SQL: a pending listing's block (`PendingBlock`) as JSON, of the block row `sb` (its block `blockId`, `blockName`), `sub` and `e`. */
const pendingBlockJson = (sb: string, blockId: string, blockName: string) => `json_build_object('studentBlockId', ${sb}.id, 'blockId', ${blockId}, 'blockName', ${blockName}, 'subjectId', sub.id, 'subjectName', sub.name,
  'grade', ${sb}.grade::float8, 'status', 'pending', 'employeeId', ${sb}.employee_id, 'employeeName', coalesce(${fullNameSql('e')}, ''), 'closedAt', ${isoSql(`${sb}.closed_at`)})`;
const PENDING_BLOCK_JSON = pendingBlockJson('sb', 'b.id', 'b.name');
const PENDING_BLOCK_JOINS = `join blocks b on b.id = sb.block_id
       join subjects sub on sub.id = b.subject_id
       join students s on s.id = sb.student_id
       left join employees e on e.id = sb.employee_id`;

/** The plain columns of a page's row (`PendingRow`), of the statement's `listed`. */
const PENDING_ROW_COLUMNS = ['student_id', 'student_name', 'student_lastname', 'id', 'block_id', 'block_name', 'subject_id', 'subject_name', 'grade', 'employee_id', 'employee_name', 'employee_lastname', 'closed_micros'];

/**
 * A page of the spec's pending listing (`limit`, or a student's whole listing), answered from one query:
 * it reads the page's rows on the indexes (`pendingPage`) and joins them to the names they show (a
 * deferred join), as plain columns; academic groups them by student and writes the answer's JSON
 * (`pendingAnswerJson`). PostgreSQL wrote that JSON before (each block's `json_build_object`, the
 * timestamps' `to_char`, the grouping and `json_agg`): more than half of the page's PostgreSQL CPU, the
 * resource the queue's pages share, for ~0.1 ms of academic's (bench README, fifth pass).
 */
export async function selectPendingPageJson(em: EntityManager, query: PendingPageQuery): Promise<string> {
  const { sql, params } = pendingPageRowsSql(query);
  return pendingAnswerJson(await prepared<PendingRow>(em, sql, params), query.limit);
}

/**
 * The pending queue's version (`listing_versions` row `pending_blocks`: the database bumps it at the
 * commit of every change to what the queue shows), read before a page: the page cache's key.
 */
export async function selectPendingVersion(em: EntityManager): Promise<{ epoch: string; version: string } | undefined> {
  const [row] = await prepared<{ epoch: string; version: string }>(em, `select epoch::text as epoch, version::text as version from listing_versions where name = 'pending_blocks'`, []);
  return row;
}

/**
 * A page (`selectPendingPageJson`) and the pending queue's version (`selectPendingVersion`) read by
 * one statement, so from one snapshot: the page is exactly the data of that version. For a page the
 * instance's cache has not seen (one round trip instead of two).
 */
export async function selectPendingPageWithVersion(em: EntityManager, query: PendingPageQuery): Promise<{ version: { epoch: string; version: string } | undefined; json: string }> {
  const { sql, params } = pendingPageRowsSql(query, true);
  const rows = await prepared<PendingRow & { version_epoch: string | null; version: string | null }>(em, sql, params);
  const [first] = rows;
  const version = first?.version_epoch == null || first.version == null ? undefined : { epoch: first.version_epoch, version: first.version };
  // An empty page is the one row of the version, its page's columns null.
  return { version, json: pendingAnswerJson(first?.id == null ? [] : rows, query.limit) };
}

/**
 * The statement of `selectPendingPageJson` (`?` parameters; exported for bench:blocks' EXPLAIN): the
 * page's rows in their order; `withVersion`, each with the queue's version (`version_epoch`, `version`),
 * and one row of it with the page's columns null when the page is empty.
 */
export function pendingPageRowsSql(query: PendingPageQuery, withVersion = false): { sql: string; params: unknown[] } {
  const page = pendingPage(query);
  const listed = `with page as (${page.sql}),
     listed as (
       select page.student_id, s.name as student_name, s.lastname as student_lastname, page.id, page.block_id, page.block_name, sub.id as subject_id, sub.name as subject_name,
              page.grade::float8 as grade, page.employee_id, e.name as employee_name, e.lastname as employee_lastname,
              ((extract(epoch from page.closed_at) * 1000000)::bigint)::text as closed_micros, page.closed_at
         from page
         join subjects sub on sub.id = page.subject_id
         join students s on s.id = page.student_id
         left join employees e on e.id = page.employee_id)`;
  const columns = PENDING_ROW_COLUMNS.map((column) => `listed.${column}`).join(', ');
  const order = 'order by listed.closed_at asc nulls last, listed.id asc';
  return {
    sql: withVersion
      ? `${listed}
     select v.epoch::text as version_epoch, v.version::text as version, ${columns}
       from (select 1) one left join listing_versions v on v.name = 'pending_blocks' left join listed on true ${order}`
      : `${listed}
     select ${columns} from listed ${order}`,
    params: page.params,
  };
}

/**
 * The whole pending listing (no `limit`), of the filters given, one group of a student a row (its
 * JSON, and `total`, the blocks of every group) in the order of their oldest block, read from a
 * PostgreSQL cursor (pg-query-stream, 100 groups a batch) as `consume` reads it: the groups are
 * ordered and written by the one query, so the service holds a batch of them, never the listing.
 */
export async function streamPendingGroups(em: EntityManager, query: PendingBlocksQuery, consume: (groups: Readable) => Promise<void>): Promise<void> {
  const { sql, params } = pendingGroupsSql(query);
  const pool = (await (em.getConnection() as PostgreSqlConnection).getNativeClient()) as unknown as Pool;
  const client = await pool.connect();
  let failure: unknown;
  try {
    await consume(client.query(new QueryStream(numberedPlaceholders(sql), params, { batchSize: 100 })));
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    // A connection left mid-query (the client went away) is dropped rather than reused.
    client.release(failure instanceof Error ? failure : undefined);
  }
}

/** The statement of `streamPendingGroups` (`?` parameters; exported for bench:blocks' EXPLAIN). */
export function pendingGroupsSql(query: PendingBlocksQuery): { sql: string; params: unknown[] } {
  const where = filters([
    ['sb.student_id = ?', query.studentId],
    ['b.subject_id = ?', query.subjectId],
  ]);
  const sql = `with listed as (
       select sb.student_id, ${fullNameSql('s')} as student_name, sb.id, sb.closed_at, ${PENDING_BLOCK_JSON} as block
         from student_blocks sb
       ${PENDING_BLOCK_JOINS}
        where sb.status = 'pending'${where.sql}),
     groups as (
       select min(closed_at) as first_closed_at, (array_agg(id order by closed_at asc nulls last, id asc))[1] as first_id, count(*) as blocks,
              json_build_object('studentId', student_id, 'studentName', coalesce(min(student_name), ''), 'blocks', json_agg(block order by closed_at asc nulls last, id asc))::text as "group"
         from listed group by student_id)
     select "group", (sum(blocks) over ())::int as total from groups order by first_closed_at asc nulls last, first_id asc`;
  return { sql, params: where.params };
}

/** The badge: how many blocks await review (of a subject), counted on the pending index alone (a prepared statement). */
export async function countPending(em: EntityManager, query: PendingCountQuery): Promise<number> {
  const where = filters([['block_id in (select id from blocks where subject_id = ?)', query.subjectId]]);
  const [row] = await prepared<{ count: number }>(em, `select count(*)::int as count from student_blocks where status = 'pending'${where.sql}`, where.params);
  return row?.count ?? 0;
}

export interface ReviewQueueRow {
  studentBlockId: number;
  studentId: number;
  studentName: string;
  blockId: number;
  blockName: string;
  position: number;
  subjectId: number;
  subjectName: string;
  status: 'pending' | 'open';
  grade: number | null;
  employeeId: number | null;
  employeeName: string | null;
  closedAt: string | null;
  rejectedAt: string | null;
}

const STUDENT_BLOCK_COLUMNS = `
  sb.id as "studentBlockId", sb.student_id as "studentId", coalesce(${fullNameSql('s')}, '') as "studentName",
  b.id as "blockId", b.name as "blockName", b.position, sub.id as "subjectId", sub.name as "subjectName",
  sb.grade::float8 as grade, sb.employee_id as "employeeId", ${fullNameSql('e')} as "employeeName"`;

const STUDENT_BLOCK_JOINS = `
  join blocks b on b.id = sb.block_id
  join subjects sub on sub.id = b.subject_id
  join students s on s.id = sb.student_id
  left join employees e on e.id = sb.employee_id`;

/** Blocks awaiting review, then blocks rejected and not closed again yet (each queue oldest first). One query. */
export async function selectReviewQueues(em: EntityManager, query: PendingRejectedQuery): Promise<ReviewQueueRow[]> {
  const where = filters([
    ['sb.student_id = ?', query.studentId],
    ['b.subject_id = ?', query.subjectId],
  ]);
  const queues = [
    query.state !== 'rejected' && `(select ${STUDENT_BLOCK_COLUMNS}, sb.status, sb.closed_at as "closedAt", sb.rejected_at as "rejectedAt", 0 as queue, sb.closed_at as since
        from student_blocks sb ${STUDENT_BLOCK_JOINS}
       where sb.status = 'pending'${where.sql})`,
    query.state !== 'pending' && `(select ${STUDENT_BLOCK_COLUMNS}, sb.status, sb.closed_at as "closedAt", sb.rejected_at as "rejectedAt", 1 as queue, sb.rejected_at as since
        from student_blocks sb ${STUDENT_BLOCK_JOINS}
       where sb.status = 'open' and sb.rejected_at is not null${where.sql})`,
  ].filter((sql): sql is string => typeof sql === 'string');
  const params = queues.flatMap(() => where.params);
  const rows = await em.execute<ReviewQueueRow[]>(`${queues.join(' union all ')} order by queue, since asc nulls last, "studentBlockId"`, params);
  return rows;
}

export type CompletedRow = Omit<ReviewQueueRow, 'status' | 'rejectedAt'> & { approvedAt: string | null; total: number };

/** The school course `schoolCourseId`, or the latest when none is given; null when there is none. */
export async function findSchoolCourseId(em: EntityManager, schoolCourseId: number | undefined): Promise<number | null> {
  const [course] = await em.execute<{ id: number }[]>(`select id from school_courses where id = coalesce(?::int, ${LATEST_SCHOOL_COURSE_SQL})`, [schoolCourseId ?? null]);
  return course?.id ?? null;
}

/**
 * Closed blocks of the students registered in the school course in the block's subject (of the
 * registrations that name `employeeId`, when given), newest approval first, a page; with the total
 * (counted apart for a page past the end, which has no rows to carry it).
 */
export async function selectCompletedPage(
  em: EntityManager,
  query: CompletedBlocksQuery & { schoolCourseId: number; employeeId?: number },
  totalOfEmptyPage: (rows: CompletedRow[], count: () => Promise<number>) => Promise<number>,
): Promise<{ rows: CompletedRow[]; total: number }> {
  const where = filters([
    ['r.subject_id = ?', query.subjectId],
    ['r.student_id = ?', query.studentId],
    ['r.employee_id = ?', query.employeeId],
  ]);
  // An erased student's kept marks are restricted (issue 35): in no list, nor in its total.
  const matching = `
    from registrations r
    join blocks b on b.subject_id = r.subject_id
    join student_blocks sb on sb.student_id = r.student_id and sb.block_id = b.id and sb.status = 'closed'
    join subjects sub on sub.id = b.subject_id
    join students s on s.id = sb.student_id and s.erased_at is null
    left join employees e on e.id = sb.employee_id
   where r.school_course_id = ?${where.sql}`;
  const params = [query.schoolCourseId, ...where.params];
  const rows = await em.execute<CompletedRow[]>(
    `select ${STUDENT_BLOCK_COLUMNS}, sb.closed_at as "closedAt", sb.approved_at as "approvedAt", count(*) over ()::int as total
     ${matching}
     order by sb.approved_at desc nulls last, sb.id desc
     limit ? offset ?`,
    [...params, query.limit, (query.page - 1) * query.limit],
  );
  const total = await totalOfEmptyPage(rows, async () => (await em.execute<{ total: number }[]>(`select count(*)::int as total ${matching}`, params))[0]!.total);
  return { rows, total };
}

// ---------------------------------------------------------------- a teacher's blocks

export interface MyBlockRow {
  studentBlockId: number;
  studentId: number;
  studentName: string;
  blockId: number;
  blockName: string;
  position: number;
  subjectId: number;
  subjectName: string;
  status: 'open' | 'pending';
  grade: number | null;
  closedAt: string | null;
  rejectedAt: string | null;
  rejectionReason: string | null;
}

/**
 * For each registration of the school course that names the employee (not cancelled; of one
 * subject when given), the subject's blocks of that student that are open or pending, with the
 * reason of the last rejection from the thread. One query, by subject, student and position.
 */
export async function selectTeacherBlocks(em: EntityManager, query: { schoolCourseId: number; employeeId: number; subjectId?: number }): Promise<MyBlockRow[]> {
  const rows = await em.execute<MyBlockRow[]>(
    `select sb.id as "studentBlockId", sb.student_id as "studentId", coalesce(${fullNameSql('s')}, '') as "studentName",
            b.id as "blockId", b.name as "blockName", b.position, sub.id as "subjectId", sub.name as "subjectName",
            sb.status, sb.grade::float8 as grade, sb.closed_at as "closedAt", sb.rejected_at as "rejectedAt",
            (select m.body from student_block_messages m where m.student_block_id = sb.id and m.kind = 'rejection' order by m.id desc limit 1) as "rejectionReason"
       from (select distinct student_id, subject_id from registrations
              where school_course_id = ? and employee_id = ? and status <> 'cancelled'${query.subjectId === undefined ? '' : ' and subject_id = ?'}) r
       join blocks b on b.subject_id = r.subject_id
       join student_blocks sb on sb.block_id = b.id and sb.student_id = r.student_id and sb.status in ('open', 'pending')
       join subjects sub on sub.id = b.subject_id
       join students s on s.id = sb.student_id
      order by sub.name, sub.id, "studentName", sb.student_id, b.position, b.id`,
    [query.schoolCourseId, query.employeeId, ...(query.subjectId === undefined ? [] : [query.subjectId])],
  );
  return rows;
}

// ---------------------------------------------------------------- closing
export interface CloseTarget {
  studentBlockId: number | null;
  status: string | null;
  callerTeaches: boolean;
  registrationTeacherId: number | null;
}

/** The block, the student's block of it (if any) and its status, whether `employeeId` teaches the student in its subject, and the registration's teacher. */
export async function findCloseTarget(em: EntityManager, blockId: number, studentId: number, employeeId: number | null): Promise<CloseTarget | undefined> {
  const [target] = await em.execute<CloseTarget[]>(
    `select sb.id as "studentBlockId", sb.status,
            ${teachesSql('?', 'b.subject_id')} as "callerTeaches",
            ${registrationTeacherSql('?', 'b.subject_id')} as "registrationTeacherId"
       from blocks b
       left join student_blocks sb on sb.block_id = b.id and sb.student_id = ?
      where b.id = ?`,
    [studentId, employeeId, studentId, studentId, blockId],
  );
  return target;
}

/** `open` → `pending` with the grade (when given), the teacher and the time; undefined when it was no longer open. */
export async function markClosed(tx: EntityManager, studentBlockId: number, close: { grade?: number | null; employeeId: number | null; at: Date }): Promise<{ grade: number | null; closedAt: string } | undefined> {
  const [closed] = await tx.execute<{ grade: number | null; closedAt: string }[]>(
    `update student_blocks
        set status = 'pending', grade = case when ?::boolean then ?::numeric else grade end, employee_id = ?, closed_at = ?::timestamptz, updated_at = now()
      where id = ? and status = 'open'
      returning grade::float8 as grade, closed_at as "closedAt"`,
    [close.grade !== undefined, close.grade ?? null, close.employeeId, close.at.toISOString(), studentBlockId],
  );
  return closed;
}

/** A student block's status now, or undefined when it is gone. */
export async function selectStatus(em: EntityManager, studentBlockId: number): Promise<string | undefined> {
  const [current] = await em.execute<{ status: string }[]>(`select status from student_blocks where id = ?`, [studentBlockId]);
  return current?.status;
}

// ---------------------------------------------------------------- reviewing
export interface ReviewTarget {
  studentBlockId: number;
  status: string;
  studentId: number;
  blockId: number;
  grade: number | null;
  employeeId: number | null;
  /** As the database wrote it: the write below applies only to this very close. */
  closedAt: string | null;
  blockName: string;
  subjectId: number;
  subjectName: string;
  nextBlockId: number | null;
  nextBlockName: string | null;
  studentName: string | null;
  studentEmail: string | null;
  guardianName: string | null;
  guardianEmail: string | null;
  teacherName: string | null;
  teacherEmail: string | null;
  teacherUserId: number | null;
  teacherLocale: Locale | null;
  studentUserId: number | null;
  studentLocale: Locale | null;
}

// A review is a read, then one statement. The read finds the block and everything the event needs
// (names, the next block, the recipients); the event is built and validated from it. The statement
// changes the row only while it is still `pending` from that same close (`closed_at`), and in the
// same statement opens the next block (approve) or writes the admin's thread message (reject) and
// inserts the outbox row: one atomic write, so of two reviews at once one changes the row and
// records its event, the other changes and records nothing. Exported for bench:blocks' baseline.
export const REVIEW_TARGET_SQL = `
  select sb.id as "studentBlockId", sb.status, sb.student_id as "studentId", sb.block_id as "blockId", sb.grade::float8 as grade,
         sb.employee_id as "employeeId", sb.closed_at as "closedAt",
         b.name as "blockName", sub.id as "subjectId", sub.name as "subjectName", nb.id as "nextBlockId", nb.name as "nextBlockName",
         trim(s.name || ' ' || s.lastname) as "studentName", s.email as "studentEmail",
         trim(g.name || ' ' || g.lastname) as "guardianName", g.email as "guardianEmail",
         trim(e.name || ' ' || e.lastname) as "teacherName", e.email as "teacherEmail",
         tu.id as "teacherUserId", tu.locale as "teacherLocale", su.id as "studentUserId", su.locale as "studentLocale"
    from student_blocks sb
    join blocks b on b.id = sb.block_id
    join subjects sub on sub.id = b.subject_id
    join students s on s.id = sb.student_id
    left join lateral (select id, name from blocks where subject_id = b.subject_id and position > b.position order by position limit 1) nb on true
    left join guardians g on g.id = s.guardian_id and g.active
    left join employees e on e.id = sb.employee_id
    left join lateral (select id, locale from users where employee_id = sb.employee_id and active order by id limit 1) tu on true
    left join lateral (select id, locale from users where student_id = sb.student_id and active order by id limit 1) su on true
   where sb.id = ?`;

/** With a key (`keyedReview`), a review changes the row only while this request holds the key and no answer is stored under it. */
const WHEN_KEY_FREE = ' and exists (select 1 from idempotency_free)';

const approveSteps = (condition = '') => `
  reviewed as (
    update student_blocks set status = 'closed', approved_at = ?::timestamptz, reviewed_by_user_id = ?, updated_at = now()
     where id = ? and status = 'pending' and closed_at is not distinct from ?::timestamptz${condition}
     returning student_id),
  unlocked as (
    update student_blocks sb set status = 'open', updated_at = now()
      from reviewed r
     where sb.student_id = r.student_id and sb.block_id = ?::int and sb.status = 'blocked'
     returning sb.id),
  event as (${outboxInsertSql()} from reviewed returning id)`;

const rejectSteps = (condition = '') => `
  reviewed as (
    update student_blocks set status = 'open', rejected_at = ?::timestamptz, reviewed_by_user_id = ?, updated_at = now()
     where id = ? and status = 'pending' and closed_at is not distinct from ?::timestamptz${condition}
     returning id),
  message as (
    insert into student_block_messages (student_block_id, author_user_id, author_role, kind, body, created_at)
    select id, ?, 'admin', 'rejection', ?, ?::timestamptz from reviewed
    returning id),
  event as (${outboxInsertSql()} from reviewed returning id)`;

/** Parameters: reviewedAt, reviewer, id, closedAt, next block id (or null), then `outboxRow(envelope)`. */
export const APPROVE_SQL = `with ${approveSteps()}
  select (select count(*)::int from reviewed) as reviewed`;

/** Parameters: rejectedAt, reviewer, id, closedAt, author, reason, rejectedAt, then `outboxRow(envelope)`. */
export const REJECT_SQL = `with ${rejectSteps()}
  select (select count(*)::int from reviewed) as reviewed`;

// The same review with its Idempotency-Key (`StatementKey` of @academy/service), in the same one
// round trip (as hours-bank's additions): the key's advisory lock is taken first, and the review's
// update (so every write after it) changes nothing unless this request holds it and no answer is
// stored under the key; the key is inserted with the answer row (whether the row changed, and the
// answer the use case built), which a replay answers from. A first request that committed after this
// statement's snapshot makes the key's insert fail, and with it the whole statement (`StatementKey.record`).
// The answer is stored as the request gave it (`json`: not parsed into `jsonb` and written out again,
// and a replay keeps its keys' order) and not sent back: the first request has it, a replay reads it
// from `key_stored`.
const keyedReview = (steps: string) => `with idempotency_lock as (select pg_try_advisory_xact_lock(hashtextextended(?::text, 0)) as locked),
  idempotency_stored as (
    select k.fingerprint, k.status, k.content_type, k.body from idempotency_keys k
     where (select locked from idempotency_lock) and k.scope = ? and k.key = ? and k.expires_at > ?::timestamptz),
  idempotency_free as (select 1 from idempotency_lock where locked and not exists (select 1 from idempotency_stored)),
  ${steps},
  answer as (select (select count(*)::int from reviewed) as reviewed, ?::json as answer),
  idempotency_recorded as (
    insert into idempotency_keys (scope, key, fingerprint, status, content_type, body, created_at, expires_at)
    select ?, ?, ?, ?::int, null, row_to_json(a)::text, ?::timestamptz, ?::timestamptz from answer a, idempotency_free)
  select a.reviewed, (select locked from idempotency_lock) as key_locked, (select row_to_json(s) from idempotency_stored s) as key_stored from answer a`;
const KEYED_APPROVE_SQL = keyedReview(approveSteps(WHEN_KEY_FREE));
const KEYED_REJECT_SQL = keyedReview(rejectSteps(WHEN_KEY_FREE));

export async function findReviewTarget(em: EntityManager, studentBlockId: number): Promise<ReviewTarget | undefined> {
  const [target] = await prepared<ReviewTarget>(em, REVIEW_TARGET_SQL, [studentBlockId]);
  return target;
}

/** A review's write with the request's Idempotency-Key: `answer`, the answer to give when the row changes. */
export interface KeyedReview<Answer> {
  key: StatementKey;
  answer: Answer;
}

/** What a review's statement did: whether the row changed; with a key, the answer stored with it (replayed: the first request's). */
export interface ReviewWritten<Answer> {
  changed: boolean;
  answer?: Answer;
}

/** The review's statement, with the key's work when keyed. */
async function writeReview<Answer>(em: EntityManager, sql: { plain: string; keyed: string }, values: unknown[], keyed: KeyedReview<Answer> | null): Promise<ReviewWritten<Answer>> {
  if (!keyed) {
    const [written] = await prepared<{ reviewed: number }>(em, sql.plain, values);
    return { changed: Boolean(written?.reviewed) };
  }
  const { key } = keyed;
  const row = await key.record(async () => {
    // `answer`: only in a replayed row (the stored one); the first request answers its own.
    const [written] = await prepared<{ reviewed: number; answer?: Answer } & KeyColumns>(em, sql.keyed, [
      key.lock,
      key.scope,
      key.key,
      key.at,
      ...values,
      JSON.stringify(keyed.answer),
      key.scope,
      key.key,
      key.fingerprint,
      key.rowStatus,
      key.at,
      key.expiresAt,
    ]);
    return written!;
  });
  return { changed: Boolean(row.reviewed), answer: row.answer };
}

/** The approval with its outbox row (`outboxRow(envelope)`), in one statement, with the request's key when given; unchanged when the block was no longer pending from that close. */
export async function writeApproval<Answer>(
  em: EntityManager,
  approval: { at: string; byUserId: number; studentBlockId: number; closedAt: string | null; nextBlockId: number | null },
  outbox: unknown[],
  keyed: KeyedReview<Answer> | null = null,
): Promise<ReviewWritten<Answer>> {
  return writeReview(em, { plain: APPROVE_SQL, keyed: KEYED_APPROVE_SQL }, [approval.at, approval.byUserId, approval.studentBlockId, approval.closedAt, approval.nextBlockId, ...outbox], keyed);
}

/** The rejection, the thread's message and the outbox row (`outboxRow(envelope)`), in one statement, with the request's key when given; as `writeApproval`. */
export async function writeRejection<Answer>(
  em: EntityManager,
  rejection: { at: string; byUserId: number; studentBlockId: number; closedAt: string | null; reason: string },
  outbox: unknown[],
  keyed: KeyedReview<Answer> | null = null,
): Promise<ReviewWritten<Answer>> {
  return writeReview(
    em,
    { plain: REJECT_SQL, keyed: KEYED_REJECT_SQL },
    [rejection.at, rejection.byUserId, rejection.studentBlockId, rejection.closedAt, rejection.byUserId, rejection.reason, rejection.at, ...outbox],
    keyed,
  );
}

/** A grade given with a bulk approval, written only while the block is still pending. */
export async function writePendingGrade(tx: EntityManager, studentBlockId: number, grade: number | null): Promise<void> {
  await tx.execute(`update student_blocks set grade = ?, updated_at = now() where id = ? and status = 'pending'`, [grade, studentBlockId]);
}

// ---------------------------------------------------------------- threads
export interface ThreadTarget {
  studentBlockId: number;
  blockId: number;
  studentId: number;
  status: StudentBlockStatus;
  callerTeaches: boolean;
}

/** The student block with whether `employeeId` teaches its student in its subject. */
export async function findThreadTarget(em: EntityManager, studentBlockId: number, employeeId: number | null): Promise<ThreadTarget | undefined> {
  const [target] = await em.execute<ThreadTarget[]>(
    `select sb.id as "studentBlockId", sb.block_id as "blockId", sb.student_id as "studentId", sb.status,
            ${teachesSql('sb.student_id', 'b.subject_id')} as "callerTeaches"
       from student_blocks sb join blocks b on b.id = sb.block_id
      where sb.id = ?`,
    [employeeId, studentBlockId],
  );
  return target;
}

export interface MessageRow {
  id: number;
  studentBlockId: number;
  authorUserId: number | null;
  authorRole: 'admin' | 'teacher';
  authorName: string | null;
  kind: 'message' | 'rejection';
  message: string;
  createdAt: string;
}

const MESSAGE_COLUMNS = `m.id, m.student_block_id as "studentBlockId", m.author_user_id as "authorUserId", m.author_role as "authorRole",
  ${fullNameSql('e')} as "authorName", m.kind, m.body as message, m.created_at as "createdAt"`;
const AUTHOR_JOINS = `left join users u on u.id = m.author_user_id left join employees e on e.id = u.employee_id`;

/** The thread's messages, oldest first, with their author's name. */
export async function selectMessages(em: EntityManager, studentBlockId: number): Promise<MessageRow[]> {
  return em.execute<MessageRow[]>(`select ${MESSAGE_COLUMNS} from student_block_messages m ${AUTHOR_JOINS} where m.student_block_id = ? order by m.id`, [studentBlockId]);
}

export async function insertMessage(em: EntityManager, message: { studentBlockId: number; authorUserId: number; authorRole: 'admin' | 'teacher'; body: string }): Promise<MessageRow> {
  const [row] = await em.execute<MessageRow[]>(
    `with m as (
       insert into student_block_messages (student_block_id, author_user_id, author_role, kind, body, created_at)
       values (?, ?, ?, 'message', ?, now())
       returning *)
     select ${MESSAGE_COLUMNS} from m ${AUTHOR_JOINS}`,
    [message.studentBlockId, message.authorUserId, message.authorRole, message.body],
  );
  return row!;
}

// ---------------------------------------------------------------- grades
export interface GradeRow {
  studentFound: number | null;
  studentName: string | null;
  subjectFound: number | null;
  subjectName: string | null;
  callerTeaches: boolean;
  studentBlockId: number | null;
  blockId: number | null;
  blockName: string | null;
  position: number | null;
  status: StudentBlockStatus | null;
  grade: number | null;
  closedAt: string | null;
  approvedAt: string | null;
}

/** Each block of the subject, in order, with the student's block of it (one row with nulls when none), whether `employeeId` teaches the student in it, and whether student and subject exist. */
export async function selectGradeRows(em: EntityManager, studentId: number, subjectId: number, employeeId: number | null): Promise<GradeRow[]> {
  const rows = await em.execute<GradeRow[]>(
    `select s.id as "studentFound", ${fullNameSql('s')} as "studentName", sub.id as "subjectFound", sub.name as "subjectName",
            ${teachesSql('q.student_id', 'q.subject_id')} as "callerTeaches",
            sb.id as "studentBlockId", b.id as "blockId", b.name as "blockName", b.position, sb.status,
            sb.grade::float8 as grade, sb.closed_at as "closedAt", sb.approved_at as "approvedAt"
       from (select ?::int as student_id, ?::int as subject_id) q
       left join students s on s.id = q.student_id
       left join subjects sub on sub.id = q.subject_id
       left join blocks b on b.subject_id = sub.id
       left join student_blocks sb on sb.block_id = b.id and sb.student_id = s.id
      order by b.position`,
    [employeeId, studentId, subjectId],
  );
  return rows;
}

// ---------------------------------------------------------------- approval digests

const OLDEST = 10;

export type Waiting = EventData<'blocks.pending-digest'>['oldest'][number];

/**
 * The blocks waiting since before `cutoff`: their count and the oldest ten, on the pending index
 * `(closed_at, id) where status = 'pending'` (the ten are joined to their names after the index gave them).
 */
export async function selectWaitingSince(em: EntityManager, cutoff: Date): Promise<{ count: number; oldest: (Omit<Waiting, 'closedAt' | 'waitingHours'> & { closedAt: string })[] }> {
  const [{ count }] = await em.execute<{ count: number }[]>(`select count(*)::int as count from student_blocks where status = 'pending' and closed_at <= ?`, [cutoff]);
  if (!count) return { count: 0, oldest: [] };
  const rows = await em.execute<(Omit<Waiting, 'closedAt' | 'waitingHours'> & { closedAt: string })[]>(
    `with page as (select id, closed_at from student_blocks where status = 'pending' and closed_at <= ? order by closed_at, id limit ${OLDEST})
     select sb.id as "studentBlockId", sb.student_id as "studentId", coalesce(${fullNameSql('s')}, '') as "studentName",
            b.id as "blockId", b.name as "blockName", sub.id as "subjectId", sub.name as "subjectName", sb.closed_at as "closedAt"
       from page
       join student_blocks sb on sb.id = page.id
       join blocks b on b.id = sb.block_id
       join subjects sub on sub.id = b.subject_id
       join students s on s.id = sb.student_id
      order by page.closed_at, page.id`,
    [cutoff],
  );
  return { count, oldest: rows };
}

/** The active admins with no digest on `day` yet: their user, name (or e-mail), e-mail and locale. */
export async function selectAdminsWithoutDigest(em: EntityManager, day: string): Promise<{ userId: number; name: string; email: string | null; locale: Locale | null }[]> {
  return em.execute(
    `select u.id as "userId", coalesce(${fullNameSql('e')}, u.email) as name, u.email, u.locale
       from users u left join employees e on e.id = u.employee_id
      where u.role = 'admin' and u.active
        and not exists (select 1 from pending_digests d where d.user_id = u.id and d.day = ?::date)
      order by u.id`,
    [day],
  );
}

/** The admin-day's digest row; false when another run wrote it first. */
export async function insertDigest(tx: EntityManager, digest: { userId: number; day: string; pendingCount: number; sentAt: Date }): Promise<boolean> {
  const inserted = await tx.execute(`insert into pending_digests (user_id, day, pending_count, sent_at) values (?, ?::date, ?, ?::timestamptz) on conflict do nothing returning 1`, [
    digest.userId,
    digest.day,
    digest.pendingCount,
    digest.sentAt,
  ]);
  return inserted.length > 0;
}
