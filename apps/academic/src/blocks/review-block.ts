import type { EntityManager } from '@mikro-orm/postgresql';
import type { ReviewAction, ReviewResponse } from '@academy/contracts';
import { recordEvent } from '@academy/messaging';
import { SOURCE } from '../shared/events.ts';
import { approvalRecipients } from './approval-recipients.ts';
import type { BlockActor } from './block-access.ts';
import { invalidStatusForReview, studentBlockNotFound } from './blocks.errors.ts';
import { isoTime } from './sql-values.ts';

/** The reason stored in the thread when an administrator rejects without giving one. */
export const NO_REASON_GIVEN = 'Rejected without a reason given.';

interface ApprovedRow {
  snapshotStatus: string;
  studentBlockId: number | null;
  studentId: number;
  blockId: number;
  grade: number | null;
  employeeId: number | null;
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
}

interface RejectedRow {
  snapshotStatus: string;
  studentBlockId: number | null;
  studentId: number;
  blockId: number;
  employeeId: number | null;
  rejectedAt: string;
}

// One statement each: the conditional update (only a `pending` block changes, so of two reviews at
// once the second finds it reviewed and changes nothing), the unlock of the next block or the
// thread message, and what the answer and the event need. `target` reads the row as the statement
// began, so it tells "not found" from "not pending". (APPROVE_SQL is exported for the benchmark's raw-SQL baseline.)
export const APPROVE_SQL = `
  with target as (select id, status from student_blocks where id = ?),
  reviewed as (
    update student_blocks set status = 'closed', approved_at = now(), reviewed_by_user_id = ?, updated_at = now()
     where id = ? and status = 'pending'
     returning id, student_id, block_id, grade, employee_id),
  next_block as (
    select nb.id, nb.name, r.student_id
      from reviewed r
      join blocks b on b.id = r.block_id
      join lateral (select id, name from blocks where subject_id = b.subject_id and position > b.position order by position limit 1) nb on true),
  unlocked as (
    update student_blocks sb set status = 'open', updated_at = now()
      from next_block n
     where sb.student_id = n.student_id and sb.block_id = n.id and sb.status = 'blocked'
     returning sb.id)
  select t.status as "snapshotStatus", r.id as "studentBlockId", r.student_id as "studentId", r.block_id as "blockId",
         r.grade::float8 as grade, r.employee_id as "employeeId",
         b.name as "blockName", sub.id as "subjectId", sub.name as "subjectName",
         n.id as "nextBlockId", n.name as "nextBlockName", (select count(*) from unlocked) as "unlockedCount",
         trim(s.name || ' ' || s.lastname) as "studentName", s.email as "studentEmail",
         trim(g.name || ' ' || g.lastname) as "guardianName", g.email as "guardianEmail",
         trim(e.name || ' ' || e.lastname) as "teacherName", e.email as "teacherEmail"
    from target t
    left join reviewed r on true
    left join blocks b on b.id = r.block_id
    left join subjects sub on sub.id = b.subject_id
    left join next_block n on true
    left join students s on s.id = r.student_id
    left join guardians g on g.id = s.guardian_id and g.active
    left join employees e on e.id = r.employee_id`;

const REJECT_SQL = `
  with target as (select id, status from student_blocks where id = ?),
  rejected as (
    update student_blocks set status = 'open', rejected_at = now(), reviewed_by_user_id = ?, updated_at = now()
     where id = ? and status = 'pending'
     returning id, student_id, block_id, employee_id, rejected_at),
  message as (
    insert into student_block_messages (student_block_id, author_user_id, author_role, kind, body, created_at)
    select id, ?, 'admin', 'rejection', ?, now() from rejected
    returning id)
  select t.status as "snapshotStatus", r.id as "studentBlockId", r.student_id as "studentId", r.block_id as "blockId",
         r.employee_id as "employeeId", r.rejected_at as "rejectedAt", (select count(*) from message) as "messages"
    from target t left join rejected r on true`;

/** Neither row changed: 404 when it does not exist, else 400 naming its status now. */
async function refuse(em: EntityManager, studentBlockId: number, snapshot: { snapshotStatus: string } | undefined): Promise<never> {
  if (!snapshot) throw studentBlockNotFound();
  // Pending when the statement began: another review won the race meanwhile; read what it left.
  const [current] = await em.execute<{ status: string }[]>(`select status from student_blocks where id = ?`, [studentBlockId]);
  if (!current) throw studentBlockNotFound();
  throw invalidStatusForReview(current.status);
}

/**
 * Approve: `pending` → `closed`, the next block of the subject opens (or the subject is complete),
 * and `block.approved` carries the recipients of the e-mails. Reject: `pending` → `open`, the
 * reason becomes the administrator's message in the block's thread and rides on `block.rejected`.
 * Each in one transaction with its outbox row.
 */
export async function reviewBlock(em: EntityManager, studentBlockId: number, review: { action: ReviewAction; reason: string | null }, actor: BlockActor): Promise<ReviewResponse> {
  const meta = { source: SOURCE, correlationId: actor.correlationId };
  if (review.action === 'approve') {
    return em.transactional(async (tx) => {
      const [row] = await tx.execute<ApprovedRow[]>(APPROVE_SQL, [studentBlockId, actor.userId, studentBlockId]);
      if (!row?.studentBlockId) return refuse(tx, studentBlockId, row);
      const subjectCompleted = row.nextBlockId === null;
      recordEvent(
        tx,
        'block.approved',
        {
          studentBlockId: row.studentBlockId,
          blockId: row.blockId,
          blockName: row.blockName,
          subjectId: row.subjectId,
          subjectName: row.subjectName,
          studentId: row.studentId,
          grade: row.grade,
          nextBlock: row.nextBlockId === null ? null : { blockId: row.nextBlockId, blockName: row.nextBlockName ?? '' },
          subjectCompleted,
          ...approvalRecipients({
            teacher: row.employeeId === null ? null : { name: row.teacherName, email: row.teacherEmail },
            student: { name: row.studentName, email: row.studentEmail },
            guardian: row.guardianName === null ? null : { name: row.guardianName, email: row.guardianEmail },
          }),
        },
        meta,
      );
      return {
        ok: true,
        studentBlockId: row.studentBlockId,
        blockId: row.blockId,
        studentId: row.studentId,
        previousStatus: 'pending',
        newStatus: 'closed',
        action: 'approve',
        ...(subjectCompleted ? { subjectCompleted: true as const } : { nextBlockUnlocked: true }),
        message: subjectCompleted
          ? 'Block approved: its status is now closed, and it was the last block of the subject, which is completed'
          : `Block approved: its status is now closed, and the next block (${row.nextBlockName}) is open`,
      };
    });
  }
  const reason = review.reason || null;
  return em.transactional(async (tx) => {
    const [row] = await tx.execute<RejectedRow[]>(REJECT_SQL, [studentBlockId, actor.userId, studentBlockId, actor.userId, reason ?? NO_REASON_GIVEN]);
    if (!row?.studentBlockId) return refuse(tx, studentBlockId, row);
    recordEvent(
      tx,
      'block.rejected',
      { studentBlockId: row.studentBlockId, blockId: row.blockId, studentId: row.studentId, employeeId: row.employeeId, reason, rejectedAt: isoTime(row.rejectedAt)! },
      meta,
    );
    return {
      ok: true,
      studentBlockId: row.studentBlockId,
      blockId: row.blockId,
      studentId: row.studentId,
      previousStatus: 'pending',
      newStatus: 'open',
      action: 'reject',
      message: 'Block rejected: its status is now open, back with the teacher to be reviewed and closed again',
    };
  });
}
