import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '@academy/auth';
import type { StatementKey } from '@academy/service';
import { createEnvelope, type EventData, type ReviewAction, type ReviewResponse } from '@academy/contracts';
import { outboxRow } from '@academy/messaging';
import type { AcademicContext } from '../shared/academic-context.ts';
import { SOURCE } from '../shared/events.ts';
import { approvalRecipients } from './approval-recipients.ts';
import { invalidStatusForReview, studentBlockNotFound } from './blocks.errors.ts';
import { findReviewTarget, selectStatus, writeApproval, writeRejection, type ReviewTarget } from './blocks.store.ts';

/** The reason stored in the thread when an administrator rejects without giving one. */
export const NO_REASON_GIVEN = 'Rejected without a reason given.';

export interface ReviewInput {
  studentBlockId: number;
  action: ReviewAction;
  reason: string | null;
  /** The request's Idempotency-Key, recorded in the review's own statement (`statementKeyOf(req)`); null or absent without one. */
  key?: StatementKey | null;
}

/** An admin approves or rejects a pending block (`reviewStudentBlock`); the relay publishes its event at once. */
export async function reviewBlock(ctx: AcademicContext, input: ReviewInput, actor: Actor): Promise<ReviewResponse> {
  const answer = await reviewStudentBlock(ctx.orm.em, ctx.clock.now(), input, actor);
  ctx.relay.nudge();
  return answer;
}

// A review is a read, then one statement. The read finds the block and everything the event needs
// (names, the next block, the recipients); the event is built and validated from it. The statement
// changes the row only while it is still `pending` from that same close (`closed_at`), and in the
// same statement opens the next block (approve) or writes the admin's thread message (reject) and
// inserts the outbox row: one atomic write, so of two reviews at once one changes the row and
// records its event, the other changes and records nothing.

/**
 * Approve: `pending` → `closed`, the next block of the subject opens (or the subject is complete),
 * and `block.approved` carries the recipients of the e-mails. Reject: `pending` → `open`, the
 * reason becomes the administrator's message in the block's thread and rides on `block.rejected`.
 * Either way the change and its outbox row are one statement. On `em` (a bulk review's item gives its transaction).
 */
export async function reviewStudentBlock(em: EntityManager, now: Date, input: ReviewInput, actor: Actor): Promise<ReviewResponse> {
  const { studentBlockId } = input;
  const key = input.key ?? null;
  const target = await findReviewTarget(em, studentBlockId);
  if (!target) throw studentBlockNotFound();
  // With a key, a block no longer pending may be this key's own review, done before: the statement replays its answer (or changes nothing, then refused below).
  if (target.status !== 'pending' && !key) throw invalidStatusForReview(target.status);
  const meta = { source: SOURCE, correlationId: actor.correlationId };
  const reviewedAt = now.toISOString();
  const answer = { ok: true as const, studentBlockId, blockId: target.blockId, studentId: target.studentId, previousStatus: 'pending' as const };
  const review = { at: reviewedAt, byUserId: actor.userId, studentBlockId, closedAt: target.closedAt };

  if (input.action === 'approve') {
    const envelope = createEnvelope('block.approved', approvedData(target), meta);
    const subjectCompleted = target.nextBlockId === null;
    const approved: ReviewResponse = {
      ...answer,
      newStatus: 'closed',
      action: 'approve',
      ...(subjectCompleted ? { subjectCompleted: true as const } : { nextBlockUnlocked: true }),
      message: subjectCompleted
        ? 'Block approved: its status is now closed, and it was the last block of the subject, which is completed'
        : `Block approved: its status is now closed, and the next block (${target.nextBlockName}) is open`,
    };
    const written = await writeApproval(em, { ...review, nextBlockId: target.nextBlockId }, outboxRow(envelope), key && { key, answer: approved });
    if (!written.changed) return refuse(em, studentBlockId);
    return written.answer ?? approved;
  }

  const reason = input.reason || null;
  const envelope = createEnvelope(
    'block.rejected',
    { studentBlockId, blockId: target.blockId, studentId: target.studentId, employeeId: target.employeeId, reason, rejectedAt: reviewedAt },
    meta,
  );
  const rejected: ReviewResponse = { ...answer, newStatus: 'open', action: 'reject', message: 'Block rejected: its status is now open, back with the teacher to be reviewed and closed again' };
  const written = await writeRejection(em, { ...review, reason: reason ?? NO_REASON_GIVEN }, outboxRow(envelope), key && { key, answer: rejected });
  if (!written.changed) return refuse(em, studentBlockId);
  return written.answer ?? rejected;
}

/** The row did not change: 404 when it is gone, else 400 naming its status now (another review may have just won). */
async function refuse(em: EntityManager, studentBlockId: number): Promise<never> {
  const status = await selectStatus(em, studentBlockId);
  if (status === undefined) throw studentBlockNotFound();
  throw invalidStatusForReview(status);
}

function approvedData(target: ReviewTarget): EventData<'block.approved'> {
  return {
    studentBlockId: target.studentBlockId,
    blockId: target.blockId,
    blockName: target.blockName,
    subjectId: target.subjectId,
    subjectName: target.subjectName,
    studentId: target.studentId,
    grade: target.grade,
    nextBlock: target.nextBlockId === null ? null : { blockId: target.nextBlockId, blockName: target.nextBlockName ?? '' },
    subjectCompleted: target.nextBlockId === null,
    ...approvalRecipients({
      teacher: target.employeeId === null ? null : { name: target.teacherName, email: target.teacherEmail, userId: target.teacherUserId, locale: target.teacherLocale },
      student: { name: target.studentName, email: target.studentEmail, userId: target.studentUserId, locale: target.studentLocale },
      guardian: target.guardianName === null ? null : { name: target.guardianName, email: target.guardianEmail },
    }),
  };
}
