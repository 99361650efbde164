import type { EntityManager } from '@mikro-orm/postgresql';
import type { StudentBlockStatus } from '@academy/contracts';
import { isAdmin, teachesSql, type BlockActor } from './block-access.ts';
import { fullNameSql, isoTime } from './sql-values.ts';
import { notTheTeacher, studentHasNoBlocksInSubject, studentNotFound, subjectNotFound } from './blocks.errors.ts';

interface GradeRow {
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

/** Mean of the grades given, two decimals; null for none. */
export function averageGrade(grades: number[]): number | null {
  if (grades.length === 0) return null;
  // Grades have two decimals: sum them as whole hundredths so the mean is exact before rounding.
  const hundredths = grades.reduce((sum, grade) => sum + Math.round(grade * 100), 0);
  return Math.round(hundredths / grades.length) / 100;
}

/** Each block of the subject, in order, for the student: status, grade, and the average of the graded ones. One query. */
export async function readBlockGrades(em: EntityManager, studentId: number, subjectId: number, actor: BlockActor) {
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
    [actor.employeeId, studentId, subjectId],
  );
  const head = rows[0]!;
  if (!isAdmin(actor) && !head.callerTeaches) throw notTheTeacher();
  if (head.studentFound === null) throw studentNotFound();
  if (head.subjectFound === null) throw subjectNotFound();
  const blocks = rows
    .filter((row) => row.studentBlockId !== null)
    .map((row) => ({
      studentBlockId: row.studentBlockId!,
      blockId: row.blockId!,
      blockName: row.blockName!,
      position: row.position!,
      status: row.status!,
      grade: row.grade,
      closedAt: isoTime(row.closedAt),
      approvedAt: isoTime(row.approvedAt),
    }));
  if (blocks.length === 0) throw studentHasNoBlocksInSubject();
  const graded = blocks.flatMap((block) => (block.grade === null ? [] : [block.grade]));
  return {
    ok: true as const,
    studentId,
    studentName: head.studentName ?? '',
    subjectId,
    subjectName: head.subjectName!,
    blocks,
    gradedCount: graded.length,
    average: averageGrade(graded),
  };
}
