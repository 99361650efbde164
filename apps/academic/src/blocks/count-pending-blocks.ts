import type { Actor } from '@academy/auth';
import type { PendingCountQuery, PendingCountResponse } from '@academy/contracts';
import type { AcademicContext } from '../shared/academic-context.ts';
import { countPending, selectPendingVersion } from './blocks.store.ts';

/**
 * The badge: how many blocks await review (of a subject), as JSON text. Kept in the page cache under the
 * queue's version as the pages are (`list-pending-blocks.ts`): the console polls it, and between two
 * changes to the queue it costs PostgreSQL the version's row instead of counting the pending index
 * (5,000 entries: 1.8 ms of PostgreSQL CPU a request in bench:blocks). The count is read after its
 * version, so it is never older than the version it is kept under.
 */
export async function countPendingBlocks(ctx: AcademicContext, input: PendingCountQuery, _actor: Actor): Promise<Buffer> {
  // `badge`: no page's query has it, so a count and a page are never each other's answer.
  const key = { badge: true, subjectId: input.subjectId };
  return Buffer.from(
    await ctx.pendingPages.json(
      () => selectPendingVersion(ctx.orm.em),
      key,
      async (): Promise<PendingCountResponse> => ({ ok: true, count: await countPending(ctx.orm.em, input) }),
    ),
  );
}
