import type { Actor } from '@academy/auth';
import type { PayslipBatch } from '@academy/contracts';
import type { PayslipsContext } from '../shared/payslips-context.ts';
import { batchNotFound } from './batches.errors.ts';
import { batchView } from './batches.store.ts';

/** Admin: a batch, its state and its pages' matches. */
export async function showBatch(ctx: PayslipsContext, input: { batchId: number }, _actor: Actor): Promise<PayslipBatch> {
  const batch = await batchView(ctx.sql.query, input.batchId);
  if (!batch) throw batchNotFound();
  return batch;
}
