import type { ReviewQueueRow } from './blocks.store.ts';

/** The fields every listing row answers of a student block, picked by name. */
export function studentBlockFields(row: Omit<ReviewQueueRow, 'status' | 'rejectedAt' | 'closedAt'>) {
  const { studentBlockId, studentId, studentName, blockId, blockName, position, subjectId, subjectName, grade, employeeId, employeeName } = row;
  return { studentBlockId, studentId, studentName, blockId, blockName, position, subjectId, subjectName, grade, employeeId, employeeName };
}
