import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '@academy/auth';
import { AppError } from '@academy/kit';
import type { BulkReviewBody, BulkReviewOutcome, BulkReviewResponse } from '@academy/contracts';
import type { AcademicContext } from '../shared/academic-context.ts';
import { writePendingGrade } from './blocks.store.ts';
import { reviewStudentBlock } from './review-block.ts';

type Item = BulkReviewBody['items'][number];

/**
 * One item: the single review, in a transaction of its own (a savepoint when the request is keyed
 * and already in one), so a failed item undoes only itself. A grade given with an approval is
 * written first, in the same transaction, and only while the block is still pending; the review
 * then reads it into the event.
 */
async function reviewItem(em: EntityManager, now: Date, item: Item, actor: Actor): Promise<BulkReviewOutcome> {
  try {
    await em.transactional(async (tx) => {
      if (item.action === 'approve' && item.grade !== undefined) await writePendingGrade(tx, item.studentBlockId, item.grade);
      await reviewStudentBlock(tx, now, { studentBlockId: item.studentBlockId, action: item.action, reason: item.reason ?? null }, actor);
    });
    return { studentBlockId: item.studentBlockId, ok: true };
  } catch (error) {
    // A known refusal (not found, not pending: another review won) is this item's outcome; anything else is a 500.
    if (error instanceof AppError && error.status < 500) return { studentBlockId: item.studentBlockId, ok: false, code: error.code, message: error.message };
    throw error;
  }
}

/**
 * Reviews each item with exactly the single review's rules and answers each outcome in the order
 * given. Items are applied in ascending id order, so two bulk reviews lock their rows in the same
 * order (no deadlock when one request's transaction holds several); a block named by two requests at
 * once is approved by one, the other gets INVALID_STATUS_FOR_REVIEW.
 */
export async function reviewBlocks(ctx: AcademicContext, input: BulkReviewBody, actor: Actor): Promise<BulkReviewResponse> {
  const now = ctx.clock.now();
  const outcomes = new Map<number, BulkReviewOutcome>();
  for (const item of [...input.items].sort((a, b) => a.studentBlockId - b.studentBlockId)) {
    outcomes.set(item.studentBlockId, await reviewItem(ctx.orm.em, now, item, actor));
  }
  const results = input.items.map((item) => outcomes.get(item.studentBlockId)!);
  const reviewed = results.filter((result) => result.ok).length;
  ctx.relay.nudge();
  return { ok: true, reviewed, failed: results.length - reviewed, results };
}
