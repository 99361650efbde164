import type { Actor } from '@academy/auth';
import type { PendingRejectedQuery } from '@academy/contracts';
import type { AcademicContext } from '../shared/academic-context.ts';
import { selectReviewQueues } from './blocks.store.ts';
import { isoTime } from './iso-time.ts';
import { studentBlockFields } from './student-block-fields.ts';

/** Blocks awaiting review, then blocks rejected and not closed again yet (each queue oldest first). */
export async function listPendingAndRejected(ctx: AcademicContext, input: PendingRejectedQuery, _actor: Actor) {
  const rows = await selectReviewQueues(ctx.orm.em, input);
  const blocks = rows.map((row) => ({
    ...studentBlockFields(row),
    state: row.status === 'pending' ? ('pending' as const) : ('rejected' as const),
    status: row.status,
    closedAt: isoTime(row.closedAt),
    rejectedAt: isoTime(row.rejectedAt),
  }));
  const pendingCount = blocks.filter((block) => block.state === 'pending').length;
  return { ok: true as const, total: blocks.length, pendingCount, rejectedCount: blocks.length - pendingCount, blocks };
}
