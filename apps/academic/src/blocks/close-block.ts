import type { Actor } from '@academy/auth';
import type { CloseBlockBody } from '@academy/contracts';
import { recordEvent } from '@academy/messaging';
import type { AcademicContext } from '../shared/academic-context.ts';
import { SOURCE } from '../shared/events.ts';
import { blockNotFound, invalidStatusForClose, notTheTeacher, studentHasNoSuchBlock } from './blocks.errors.ts';
import { findCloseTarget, markClosed, selectStatus } from './blocks.store.ts';
import { isoTime } from './iso-time.ts';

export type CloseBlockInput = CloseBlockBody & { blockId: number };

/**
 * The teacher (or an admin) closes an open block for a student: it becomes `pending` with the
 * grade, the teacher and the time, and `block.closed` is recorded in the same transaction. The
 * change is conditional on the block still being open, so two closes at once make one change.
 */
export async function closeBlock(ctx: AcademicContext, input: CloseBlockInput, actor: Actor) {
  const { blockId, studentId } = input;
  const isAdmin = actor.role === 'admin';
  const target = await findCloseTarget(ctx.orm.em, blockId, studentId, actor.employeeId);
  if (!target) throw blockNotFound();
  if (!isAdmin && !target.callerTeaches) throw notTheTeacher();
  if (target.studentBlockId === null) throw studentHasNoSuchBlock();
  if (target.status !== 'open') throw invalidStatusForClose(target.status ?? 'unknown');
  const studentBlockId = target.studentBlockId;

  // The teacher is the caller; an admin closes on behalf of the registration's teacher.
  const employeeId = isAdmin ? (target.registrationTeacherId ?? actor.employeeId) : actor.employeeId;
  const result = await ctx.orm.em.transactional(async (tx) => {
    const closed = await markClosed(tx, studentBlockId, { grade: input.grade, employeeId, at: ctx.clock.now() });
    if (!closed) throw invalidStatusForClose((await selectStatus(tx, studentBlockId)) ?? 'unknown');
    const closedAt = isoTime(closed.closedAt)!;
    recordEvent(tx, 'block.closed', { studentBlockId, blockId, studentId, employeeId, grade: closed.grade, closedAt }, { source: SOURCE, correlationId: actor.correlationId });
    return { ok: true as const, studentBlockId, blockId, studentId, previousStatus: 'open' as const, newStatus: 'pending' as const, grade: closed.grade, closedAt };
  });
  ctx.relay.nudge();
  return result;
}
