import type { Actor } from '@academy/auth';
import type { PayslipBatch } from '@academy/contracts';
import { employeeForPayslip } from '../shared/employees.store.ts';
import type { PayslipsContext } from '../shared/payslips-context.ts';
import { batchNotFound, batchNotReady, pageOutOfRange } from './batches.errors.ts';
import { assignPageTo, batchView, findBatch } from './batches.store.ts';

/** Admin: a page of a ready batch belongs to this employee (whatever it names). */
export async function assignPage(ctx: PayslipsContext, input: { batchId: number; page: number; employeeId: number }, _actor: Actor): Promise<PayslipBatch> {
  await ctx.sql.transaction(async (query) => {
    const batch = await findBatch(query, input.batchId, { lock: true });
    if (!batch) throw batchNotFound();
    if (batch.status !== 'ready') throw batchNotReady(batch.status);
    if (input.page > batch.pageCount) throw pageOutOfRange(batch.pageCount);
    await employeeForPayslip(query, input.employeeId);
    await assignPageTo(query, input.batchId, input.page, input.employeeId);
  });
  return (await batchView(ctx.sql.query, input.batchId))!;
}
