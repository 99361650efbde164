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
export async function createBatch(ctx: PayslipsContext, actor: Actor, fields: PayslipBatchFields, pdf: ReceivedPdf, signal: AbortSignal): Promise<{ batch: PayslipBatch; startReading: () => void }> {
  const { sql, storage, clock } = ctx;
  let batchId: number;
  try {
    const pageCount = await checkPdf(ctx, pdf.bytes, 'combined', signal);
    stillWanted(signal);
    const at = clock.now();
    batchId = await insertBatch(sql.query, {
      label: fields.label,
      periodStart: fields.periodStart,
      periodEnd: fields.periodEnd,
      issuedOn: fields.issuedOn ?? dayIn(at, ctx.config.ACADEMY_TIME_ZONE),
      matchBy: fields.matchBy,
      pageCount,
      sizeBytes: pdf.sizeBytes,
      storageKey: pdf.storageKey,
      createdAt: at,
      createdByUserId: actor.userId,
    });
    onRollback(() => storage.remove(pdf.storageKey));
  } catch (error) {
    await storage.remove(pdf.storageKey).catch(() => undefined);
    throw error;
  }
  return { batch: (await batchView(sql.query, batchId))!, startReading: () => startRead(ctx, batchId, pdf.bytes) };
}
