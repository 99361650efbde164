import type { PayslipsContext } from '../shared/payslips-context.ts';
import { claimInterruptedReads } from './batches.store.ts';
import { startRead } from './read-batch.ts';

/**
 * Batches left `reading` longer than BATCH_READ_TIMEOUT_MS (their instance stopped mid-read) are
 * claimed (one instance each: `skip locked`) and read again. Answers how many.
 */
export async function resumeInterruptedReads(ctx: PayslipsContext, _input: Record<string, never>): Promise<number> {
  const at = ctx.clock.now();
  const claimed = await claimInterruptedReads(ctx.sql.query, at, new Date(at.getTime() - ctx.config.BATCH_READ_TIMEOUT_MS));
  for (const batchId of claimed) startRead(ctx, { batchId });
  return claimed.length;
}
