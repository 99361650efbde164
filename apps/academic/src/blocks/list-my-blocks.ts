import type { MyBlocksQuery, MyBlocksResponse } from '@academy/contracts';
import { LATEST_SCHOOL_COURSE_SQL } from '../shared/latest-school-course.ts';
import type { AcademicContext } from '../shared/academic-context.ts';
import type { BlockActor } from './block-access.ts';
import { notAnEmployee } from './blocks.errors.ts';
import { fullNameSql, isoTime } from './sql-values.ts';

interface MyBlockRow {
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
 * What a teacher acts on (the console's Blocks): for each registration of the latest school course
 * that names the caller (not cancelled), the subject's blocks of that student that are open (to
 * close) or pending (closed, awaiting review); an open one rejected before is `rejected`, with the
 * reason of its last rejection from the thread. One query, by subject, student and position.
 */
export async function listMyBlocks(ctx: AcademicContext, query: MyBlocksQuery, actor: BlockActor): Promise<MyBlocksResponse> {
  if (actor.employeeId === null) throw notAnEmployee();
  const em = ctx.orm.em.fork();
  const [course] = await em.execute<{ id: number | null }[]>(`select ${LATEST_SCHOOL_COURSE_SQL} as id`);
  if (!course?.id) return { ok: true, schoolCourseId: null, total: 0, blocks: [] };
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
    [course.id, actor.employeeId, ...(query.subjectId === undefined ? [] : [query.subjectId])],
  );
  const blocks = rows.map((row) => ({
    ...row,
    state: row.status === 'pending' ? ('pending' as const) : row.rejectedAt ? ('rejected' as const) : ('open' as const),
    closedAt: isoTime(row.closedAt),
    rejectedAt: isoTime(row.rejectedAt),
  }));
  return { ok: true, schoolCourseId: course.id, total: blocks.length, blocks };
}
