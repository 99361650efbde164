import type { Actor } from '@academy/auth';
import type { AcademicContext } from '../shared/academic-context.ts';
import { notTheTeacher, studentHasNoBlocksInSubject, studentNotFound, subjectNotFound } from './blocks.errors.ts';
import { selectGradeRows } from './blocks.store.ts';
import { isoTime } from './iso-time.ts';

/** Mean of the grades given, two decimals; null for none. */
export function averageGrade(grades: number[]): number | null {
  if (grades.length === 0) return null;
  // Grades have two decimals: sum them as whole hundredths so the mean is exact before rounding.
  const hundredths = grades.reduce((sum, grade) => sum + Math.round(grade * 100), 0);
  return Math.round(hundredths / grades.length) / 100;
}

/** Each block of the subject, in order, for the student: status, grade, and the average of the graded ones. One query. */
export async function readBlockGrades(ctx: AcademicContext, input: { studentId: number; subjectId: number }, actor: Actor) {
  const { studentId, subjectId } = input;
  const rows = await selectGradeRows(ctx.orm.em, studentId, subjectId, actor.employeeId);
  const head = rows[0]!;
  if (actor.role !== 'admin' && !head.callerTeaches) throw notTheTeacher();
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
