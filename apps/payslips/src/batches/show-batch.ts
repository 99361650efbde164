import type { PayslipBatch } from '@academy/contracts';
import type { PayslipsContext } from '../shared/payslips-context.ts';
import { batchNotFound } from './batches.errors.ts';
import { batchView } from './batches.store.ts';

/** Admin: a batch, its state and its pages' matches. */
export async function showBatch(ctx: PayslipsContext, batchId: number): Promise<PayslipBatch> {
  const batch = await batchView(ctx.sql.query, batchId);
  if (!batch) throw batchNotFound();
  return batch;
}
