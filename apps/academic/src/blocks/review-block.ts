import type { EntityManager } from '@mikro-orm/postgresql';
import { createEnvelope, type EventData, type Locale, type ReviewAction, type ReviewResponse } from '@academy/contracts';
import { outboxInsertSql, outboxRow } from '@academy/messaging';
import { SOURCE } from '../shared/events.ts';
import { approvalRecipients } from './approval-recipients.ts';
import type { BlockActor } from './block-access.ts';
import { invalidStatusForReview, studentBlockNotFound } from './blocks.errors.ts';

/** The reason stored in the thread when an administrator rejects without giving one. */
export const NO_REASON_GIVEN = 'Rejected without a reason given.';

interface ReviewTarget {
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

/** Parameters: reviewedAt, reviewer, id, closedAt, next block id (or null), then `outboxRow(envelope)`. */
export const APPROVE_SQL = `
  with reviewed as (
    update student_blocks set status = 'closed', approved_at = ?::timestamptz, reviewed_by_user_id = ?, updated_at = now()
     where id = ? and status = 'pending' and closed_at is not distinct from ?::timestamptz
     returning student_id),
  unlocked as (
    update student_blocks sb set status = 'open', updated_at = now()
      from reviewed r
     where sb.student_id = r.student_id and sb.block_id = ?::int and sb.status = 'blocked'
     returning sb.id),
  event as (${outboxInsertSql()} from reviewed returning id)
  select (select count(*)::int from reviewed) as reviewed`;

/** Parameters: rejectedAt, reviewer, id, closedAt, author, reason, rejectedAt, then `outboxRow(envelope)`. */
const REJECT_SQL = `
  with rejected as (
    update student_blocks set status = 'open', rejected_at = ?::timestamptz, reviewed_by_user_id = ?, updated_at = now()
     where id = ? and status = 'pending' and closed_at is not distinct from ?::timestamptz
     returning id),
  message as (
    insert into student_block_messages (student_block_id, author_user_id, author_role, kind, body, created_at)
    select id, ?, 'admin', 'rejection', ?, ?::timestamptz from rejected
    returning id),
  event as (${outboxInsertSql()} from rejected returning id)
  select (select count(*)::int from rejected) as reviewed`;

/** The row did not change: 404 when it is gone, else 400 naming its status now (another review may have just won). */
async function refuse(em: EntityManager, studentBlockId: number): Promise<never> {
  const [current] = await em.execute<{ status: string }[]>(`select status from student_blocks where id = ?`, [studentBlockId]);
  if (!current) throw studentBlockNotFound();
  throw invalidStatusForReview(current.status);
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

/**
 * Approve: `pending` → `closed`, the next block of the subject opens (or the subject is complete),
 * and `block.approved` carries the recipients of the e-mails. Reject: `pending` → `open`, the
 * reason becomes the administrator's message in the block's thread and rides on `block.rejected`.
 * Either way the change and its outbox row are one statement.
 */
export async function reviewBlock(em: EntityManager, now: Date, studentBlockId: number, review: { action: ReviewAction; reason: string | null }, actor: BlockActor): Promise<ReviewResponse> {
  const [target] = await em.execute<ReviewTarget[]>(REVIEW_TARGET_SQL, [studentBlockId]);
  if (!target) throw studentBlockNotFound();
  if (target.status !== 'pending') throw invalidStatusForReview(target.status);
  const meta = { source: SOURCE, correlationId: actor.correlationId };
  const reviewedAt = now.toISOString();
  const answer = { ok: true as const, studentBlockId, blockId: target.blockId, studentId: target.studentId, previousStatus: 'pending' as const };

  if (review.action === 'approve') {
    const envelope = createEnvelope('block.approved', approvedData(target), meta);
    const [written] = await em.execute<{ reviewed: number }[]>(APPROVE_SQL, [
      reviewedAt,
      actor.userId,
      studentBlockId,
      target.closedAt,
      target.nextBlockId,
      ...outboxRow(envelope),
    ]);
    if (!written?.reviewed) return refuse(em, studentBlockId);
    const subjectCompleted = target.nextBlockId === null;
    return {
      ...answer,
      newStatus: 'closed',
      action: 'approve',
      ...(subjectCompleted ? { subjectCompleted: true as const } : { nextBlockUnlocked: true }),
      message: subjectCompleted
        ? 'Block approved: its status is now closed, and it was the last block of the subject, which is completed'
        : `Block approved: its status is now closed, and the next block (${target.nextBlockName}) is open`,
    };
  }

  const reason = review.reason || null;
  const envelope = createEnvelope(
    'block.rejected',
    { studentBlockId, blockId: target.blockId, studentId: target.studentId, employeeId: target.employeeId, reason, rejectedAt: reviewedAt },
    meta,
  );
  const [written] = await em.execute<{ reviewed: number }[]>(REJECT_SQL, [
    reviewedAt,
    actor.userId,
    studentBlockId,
    target.closedAt,
    actor.userId,
    reason ?? NO_REASON_GIVEN,
    reviewedAt,
    ...outboxRow(envelope),
  ]);
  if (!written?.reviewed) return refuse(em, studentBlockId);
  return { ...answer, newStatus: 'open', action: 'reject', message: 'Block rejected: its status is now open, back with the teacher to be reviewed and closed again' };
}
