import type { EntityManager } from '@mikro-orm/postgresql';
import type { CloseBlockBody } from '@academy/contracts';
import { recordEvent } from '@academy/messaging';
import { SOURCE } from '../shared/events.ts';
import { isAdmin, registrationTeacherSql, teachesSql, type BlockActor } from './block-access.ts';
import { isoTime } from './sql-values.ts';
import { blockNotFound, invalidStatusForClose, notTheTeacher, studentHasNoSuchBlock } from './blocks.errors.ts';

interface CloseTarget {
  studentBlockId: number | null;
  status: string | null;
  callerTeaches: boolean;
  registrationTeacherId: number | null;
}

/**
 * The teacher (or an admin) closes an open block for a student: it becomes `pending` with the
 * grade, the teacher and the time, and `block.closed` is recorded in the same transaction. The
 * change is conditional on the block still being open, so two closes at once make one change.
 */
export async function closeBlock(em: EntityManager, now: Date, blockId: number, input: CloseBlockBody, actor: BlockActor) {
  const [target] = await em.execute<CloseTarget[]>(
    `select sb.id as "studentBlockId", sb.status,
            ${teachesSql('?', 'b.subject_id')} as "callerTeaches",
            ${registrationTeacherSql('?', 'b.subject_id')} as "registrationTeacherId"
       from blocks b
       left join student_blocks sb on sb.block_id = b.id and sb.student_id = ?
      where b.id = ?`,
    [input.studentId, actor.employeeId, input.studentId, input.studentId, blockId],
  );
  if (!target) throw blockNotFound();
  if (!isAdmin(actor) && !target.callerTeaches) throw notTheTeacher();
  if (target.studentBlockId === null) throw studentHasNoSuchBlock();
  if (target.status !== 'open') throw invalidStatusForClose(target.status ?? 'unknown');

  // The teacher is the caller; an admin closes on behalf of the registration's teacher.
  const employeeId = isAdmin(actor) ? (target.registrationTeacherId ?? actor.employeeId) : actor.employeeId;
  const gradeGiven = input.grade !== undefined;
  return em.transactional(async (tx) => {
    const [closed] = await tx.execute<{ grade: number | null; closedAt: string }[]>(
      `update student_blocks
          set status = 'pending', grade = case when ?::boolean then ?::numeric else grade end, employee_id = ?, closed_at = ?::timestamptz, updated_at = now()
        where id = ? and status = 'open'
        returning grade::float8 as grade, closed_at as "closedAt"`,
      [gradeGiven, input.grade ?? null, employeeId, now.toISOString(), target.studentBlockId],
    );
    if (!closed) {
      const [current] = await tx.execute<{ status: string }[]>(`select status from student_blocks where id = ?`, [target.studentBlockId]);
      throw invalidStatusForClose(current?.status ?? 'unknown');
    }
    const closedAt = isoTime(closed.closedAt)!;
    const studentBlockId = target.studentBlockId!;
    recordEvent(tx, 'block.closed', { studentBlockId, blockId, studentId: input.studentId, employeeId, grade: closed.grade, closedAt }, { source: SOURCE, correlationId: actor.correlationId });
    return {
      ok: true as const,
      studentBlockId,
      blockId,
      studentId: input.studentId,
      previousStatus: 'open' as const,
      newStatus: 'pending' as const,
      grade: closed.grade,
      closedAt,
    };
  });
}
