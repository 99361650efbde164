import type { PayslipBatch, PayslipBatchFields } from '@academy/contracts';
import { onRollback } from '@academy/service';
import type { Actor } from '../shared/actor.ts';
import { checkPdf } from '../shared/check-pdf.ts';
import { dayIn } from '../shared/dates.ts';
import type { Payslips } from '../shared/payslips-context.ts';
import type { ReceivedPdf } from '../shared/uploads.ts';
import { showBatch } from './batches.store.ts';
import { startRead } from './read-batch.ts';

/**
 * Admin: the month's combined PDF. What can be told at once is (a worker opens it: encrypted, over
 * the page limit, no text layer on its first pages: 422, nothing kept); then the batch is recorded
 * as `reading`; `startReading`, called once the answer is sent (the request's transaction, if it
 * has one, is committed by then), reads and matches its pages in the background.
 */
export async function createBatch(payslips: Payslips, actor: Actor, fields: PayslipBatchFields, pdf: ReceivedPdf): Promise<{ batch: PayslipBatch; startReading: () => void }> {
  const { sql, storage, now } = payslips;
  let batchId: number;
  try {
    const pageCount = await checkPdf(payslips, pdf.bytes, { requireText: true });
    const at = now();
    const [row] = await sql.query<{ id: number }>(
      `insert into payslip_batches (status, label, period_start, period_end, issued_on, match_by, page_count, size_bytes, storage_key, created_at, created_by_user_id, read_started_at)
       values ('reading', $1, $2::date, $3::date, $4::date, $5, $6, $7, $8, $9, $10, $9) returning id`,
      [fields.label, fields.periodStart, fields.periodEnd, fields.issuedOn ?? dayIn(at, payslips.config.ACADEMY_TIME_ZONE), fields.matchBy, pageCount, pdf.sizeBytes, pdf.storageKey, at, actor.userId],
    );
    batchId = row!.id;
    onRollback(() => storage.remove(pdf.storageKey));
  } catch (error) {
    await storage.remove(pdf.storageKey).catch(() => undefined);
    throw error;
  }
  return { batch: (await showBatch(sql.query, batchId))!, startReading: () => startRead(payslips, batchId, pdf.bytes) };
}
