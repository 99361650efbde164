import type { EntityManager } from '@mikro-orm/postgresql';
import type { CompletedBlocksQuery, PendingBlock, PendingBlocksQuery, PendingBlocksResponse, PendingCountQuery, PendingCountResponse, PendingRejectedQuery } from '@academy/contracts';
import { pageMeta, pageTotal } from '@academy/kit';
import { LATEST_SCHOOL_COURSE_SQL } from '../shared/latest-school-course.ts';
import { isAdmin, type BlockActor } from './block-access.ts';
import { fullNameSql, isoTime } from './sql-values.ts';
import { notAnEmployee, schoolCourseNotFound } from './blocks.errors.ts';

/** `and <condition>` for each filter given, with its parameters in order. */
function filters(given: [condition: string, value: number | string | undefined][]) {
  const present = given.filter(([, value]) => value !== undefined);
  return { sql: present.map(([condition]) => ` and ${condition}`).join(''), params: present.map(([, value]) => value) };
}

type PendingRow = Omit<PendingBlock, 'closedAt' | 'status'> & { studentId: number; studentName: string; closedAt: string | null };

/**
 * The spec's pending listing: every `pending` block (or a page of them), oldest close first,
 * grouped by student in the order of their oldest one. One query, however many students.
 */
/**
 * The ids of the page, oldest close first, read on the pending indexes alone. A subject's page is a
 * merge of its blocks' ordered runs (index `(block_id, closed_at, id)`): PostgreSQL's Merge Append
 * reads offset + limit entries, where the walk of the whole pending index in close order would read
 * every pending block until it had skipped the offset's worth of this subject.
 */
async function pendingPage(em: EntityManager, query: PendingBlocksQuery): Promise<{ sql: string; params: unknown[] } | null> {
  const order = 'order by closed_at asc nulls last, id asc';
  const page = query.limit === undefined ? '' : ` limit ${query.limit} offset ${query.limit * ((query.page ?? 1) - 1)}`;
  const student = query.studentId === undefined ? { sql: '', params: [] } : { sql: ' and student_id = ?', params: [query.studentId] };
  if (query.subjectId === undefined) {
    return { sql: `select id, closed_at from student_blocks where status = 'pending'${student.sql} ${order}${page}`, params: student.params };
  }
  const blocks = await em.execute<{ id: number }[]>(`select id from blocks where subject_id = ? order by id`, [query.subjectId]);
  if (!blocks.length) return null;
  const runs = blocks.map(() => `(select id, closed_at from student_blocks where status = 'pending' and block_id = ?${student.sql} ${order})`);
  return { sql: `select id, closed_at from (${runs.join(' union all ')}) runs ${order}${page}`, params: blocks.flatMap((block) => [block.id, ...student.params]) };
}

export async function listPendingBlocks(em: EntityManager, query: PendingBlocksQuery): Promise<PendingBlocksResponse> {
  const page = await pendingPage(em, query);
  if (!page) return { ok: true, total: 0, byStudent: [] };
  // A deferred join: the page's ids come from the indexes alone (the rows a deep page skips cost an
  // index entry each, not five joins and two names), then only the page is joined.
  const rows = await em.execute<PendingRow[]>(
    `with page as (${page.sql})
     select sb.id as "studentBlockId", sb.student_id as "studentId", ${fullNameSql('s')} as "studentName",
            b.id as "blockId", b.name as "blockName", sub.id as "subjectId", sub.name as "subjectName",
            sb.grade::float8 as grade, sb.employee_id as "employeeId", coalesce(${fullNameSql('e')}, '') as "employeeName", sb.closed_at as "closedAt"
       from page
       join student_blocks sb on sb.id = page.id
       join blocks b on b.id = sb.block_id
       join subjects sub on sub.id = b.subject_id
       join students s on s.id = sb.student_id
       left join employees e on e.id = sb.employee_id
      order by page.closed_at asc nulls last, page.id asc`,
    page.params,
  );
  const groups = new Map<number, PendingBlocksResponse['byStudent'][number]>();
  for (const row of rows) {
    let group = groups.get(row.studentId);
    if (!group) groups.set(row.studentId, (group = { studentId: row.studentId, studentName: row.studentName ?? '', blocks: [] }));
    group.blocks.push({
      studentBlockId: row.studentBlockId,
      blockId: row.blockId,
      blockName: row.blockName,
      subjectId: row.subjectId,
      subjectName: row.subjectName,
      grade: row.grade,
      status: 'pending',
      employeeId: row.employeeId,
      employeeName: row.employeeName,
      closedAt: isoTime(row.closedAt),
    });
  }
  return { ok: true, total: rows.length, byStudent: [...groups.values()] };
}

/** The badge: how many blocks await review (of a subject), counted on the pending index alone. */
export async function countPendingBlocks(em: EntityManager, query: PendingCountQuery): Promise<PendingCountResponse> {
  const where = filters([['block_id in (select id from blocks where subject_id = ?)', query.subjectId]]);
  const [row] = await em.execute<{ count: number }[]>(`select count(*)::int as count from student_blocks where status = 'pending'${where.sql}`, where.params);
  return { ok: true, count: row?.count ?? 0 };
}

interface ReviewQueueRow {
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

/** The fields of STUDENT_BLOCK_COLUMNS that every listing row answers, picked by name. */
function studentBlockFields(row: Omit<ReviewQueueRow, 'status' | 'rejectedAt' | 'closedAt'>) {
  const { studentBlockId, studentId, studentName, blockId, blockName, position, subjectId, subjectName, grade, employeeId, employeeName } = row;
  return { studentBlockId, studentId, studentName, blockId, blockName, position, subjectId, subjectName, grade, employeeId, employeeName };
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
export async function listPendingAndRejected(em: EntityManager, query: PendingRejectedQuery) {
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
  const blocks = rows.map((row) => ({
    ...studentBlockFields(row),
    state: row.status === 'pending' ? ('pending' as const) : ('rejected' as const),
    status: row.status,
    closedAt: isoTime(row.closedAt),
    rejectedAt: isoTime(row.rejectedAt),
  }));
  const pendingCount = blocks.filter((block) => block.state === 'pending').length;
  return { ok: true as const, total: blocks.length, pendingCount, rejectedCount: blocks.length - pendingCount, blocks };
}

type CompletedRow = Omit<ReviewQueueRow, 'status' | 'rejectedAt'> & { approvedAt: string | null; total: number };

/**
 * Closed blocks of the students registered in a school course (the latest by default) in the
 * block's subject, newest approval first, a page at a time. An admin sees all; an employee those
 * of the registrations that name them; anyone else is refused.
 */
export async function listCompletedBlocks(em: EntityManager, query: CompletedBlocksQuery, actor: BlockActor) {
  if (!isAdmin(actor) && actor.employeeId === null) throw notAnEmployee();
  const [course] = await em.execute<{ id: number }[]>(`select id from school_courses where id = coalesce(?::int, ${LATEST_SCHOOL_COURSE_SQL})`, [query.schoolCourseId ?? null]);
  if (!course) throw schoolCourseNotFound();
  const where = filters([
    ['r.subject_id = ?', query.subjectId],
    ['r.student_id = ?', query.studentId],
    ['r.employee_id = ?', isAdmin(actor) ? undefined : (actor.employeeId ?? undefined)],
  ]);
  const matching = `
    from registrations r
    join blocks b on b.subject_id = r.subject_id
    join student_blocks sb on sb.student_id = r.student_id and sb.block_id = b.id and sb.status = 'closed'
    join subjects sub on sub.id = b.subject_id
    join students s on s.id = sb.student_id
    left join employees e on e.id = sb.employee_id
   where r.school_course_id = ?${where.sql}`;
  const params = [course.id, ...where.params];
  const rows = await em.execute<CompletedRow[]>(
    `select ${STUDENT_BLOCK_COLUMNS}, sb.closed_at as "closedAt", sb.approved_at as "approvedAt", count(*) over ()::int as total
     ${matching}
     order by sb.approved_at desc nulls last, sb.id desc
     limit ? offset ?`,
    [...params, query.limit, (query.page - 1) * query.limit],
  );
  // A page past the end has no rows to carry the total: count apart.
  const total = await pageTotal(rows, query.page, async () => (await em.execute<{ total: number }[]>(`select count(*)::int as total ${matching}`, params))[0]!.total);
  return {
    ok: true as const,
    schoolCourseId: course.id,
    data: rows.map((row) => ({
      ...studentBlockFields(row),
      closedAt: isoTime(row.closedAt),
      approvedAt: isoTime(row.approvedAt),
    })),
    meta: pageMeta(total, query.page, query.limit),
  };
}
