import type { Actor } from '@academy/auth';
import type { PayslipBatch } from '@academy/contracts';
import { afterCommit } from '@academy/service';
import type { PayslipsContext } from '../shared/payslips-context.ts';
import { batchNotFound, batchPublished } from './batches.errors.ts';
import { batchView, findBatch, markDiscarded } from './batches.store.ts';

/** Admin: an unpublished batch is dropped with its pages and its file (a read still running finds it discarded). A second discard changes nothing. */
export async function discardBatch(ctx: PayslipsContext, input: { batchId: number }, _actor: Actor): Promise<PayslipBatch> {
  const storageKey = await ctx.sql.transaction(async (query) => {
    const batch = await findBatch(query, input.batchId, { lock: true });
    if (!batch) throw batchNotFound();
    if (batch.status === 'published') throw batchPublished();
    if (batch.status === 'discarded') return null;
    await markDiscarded(query, input.batchId, ctx.clock.now());
    return batch.storageKey;
  });
  // The file goes once the discard is committed (later, under an Idempotency-Key).
  if (storageKey) await afterCommit(() => ctx.storage.remove(storageKey));
  return (await batchView(ctx.sql.query, input.batchId))!;
}
