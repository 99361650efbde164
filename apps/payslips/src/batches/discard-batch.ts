import type { PayslipBatch } from '@academy/contracts';
import { afterCommit } from '@academy/service';
import type { Payslips } from '../shared/payslips-context.ts';
import { batchNotFound, batchPublished } from './batches.errors.ts';
import { findBatch, showBatch } from './batches.store.ts';

/** Admin: an unpublished batch is dropped with its pages and its file (a read still running finds it discarded). A second discard changes nothing. */
export async function discardBatch(payslips: Payslips, batchId: number): Promise<PayslipBatch> {
  const { sql, storage, now } = payslips;
  const storageKey = await sql.transaction(async (query) => {
    const batch = await findBatch(query, batchId, { lock: true });
    if (!batch) throw batchNotFound();
    if (batch.status === 'published') throw batchPublished();
    if (batch.status === 'discarded') return null;
    await query(`update payslip_batches set status = 'discarded', discarded_at = $2, storage_key = null where id = $1`, [batchId, now()]);
    await query(`delete from payslip_batch_pages where batch_id = $1`, [batchId]);
    return batch.storageKey;
  });
  // The file goes once the discard is committed (later, under an Idempotency-Key).
  if (storageKey) await afterCommit(() => storage.remove(storageKey));
  return (await showBatch(sql.query, batchId))!;
}
