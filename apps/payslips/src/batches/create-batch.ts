import type { Actor } from '@academy/auth';
import type { PayslipBatch, PayslipBatchFields } from '@academy/contracts';
import { onRollback } from '@academy/service';
import { checkPdf, stillWanted } from '../shared/check-pdf.ts';
import { dayIn } from '../shared/dates.ts';
import type { PayslipsContext } from '../shared/payslips-context.ts';
import type { ReceivedPdf } from '../shared/uploads.ts';
import { batchView, insertBatch } from './batches.store.ts';
import { startRead } from './read-batch.ts';

/**
 * Admin: the month's combined PDF. What can be told at once is (a worker opens it: encrypted, over
 * the page limit, no text layer on its first pages: 422, nothing kept); then the batch is recorded
 * as `reading`; `startReading`, called once the answer is sent (the request's transaction, if it
 * has one, is committed by then), reads and matches its pages in the background. A request that went
 * away (`signal`) before the batch is recorded keeps nothing.
 */
export type CreateBatchInput = PayslipBatchFields & { pdf: ReceivedPdf; signal: AbortSignal };

export async function createBatch(ctx: PayslipsContext, input: CreateBatchInput, actor: Actor): Promise<{ batch: PayslipBatch; startReading: () => void }> {
  let batchId: number;
  try {
    const pageCount = await checkPdf(ctx, input.pdf.bytes, 'combined', input.signal);
    stillWanted(input.signal);
    const at = ctx.clock.now();
    batchId = await insertBatch(ctx.sql.query, {
      label: input.label,
      periodStart: input.periodStart,
      periodEnd: input.periodEnd,
      issuedOn: input.issuedOn ?? dayIn(at, ctx.config.ACADEMY_TIME_ZONE),
      matchBy: input.matchBy,
      pageCount,
      sizeBytes: input.pdf.sizeBytes,
      storageKey: input.pdf.storageKey,
      createdAt: at,
      createdByUserId: actor.userId,
    });
    onRollback(() => ctx.storage.remove(input.pdf.storageKey));
  } catch (error) {
    await ctx.storage.remove(input.pdf.storageKey).catch(() => undefined);
    throw error;
  }
  return { batch: (await batchView(ctx.sql.query, batchId))!, startReading: () => startRead(ctx, { batchId, bytes: input.pdf.bytes }) };
}
