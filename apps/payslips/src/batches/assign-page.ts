import type { PayslipBatch } from '@academy/contracts';
import { employeeForPayslip } from '../shared/employees.store.ts';
import type { PayslipsContext } from '../shared/payslips-context.ts';
import { batchNotFound, batchNotReady, pageOutOfRange } from './batches.errors.ts';
import { assignPageTo, batchView, findBatch } from './batches.store.ts';

/** Admin: a page of a ready batch belongs to this employee (whatever it names). */
export async function assignPage(ctx: PayslipsContext, batchId: number, page: number, employeeId: number): Promise<PayslipBatch> {
  const { sql } = ctx;
  await sql.transaction(async (query) => {
    const batch = await findBatch(query, batchId, { lock: true });
    if (!batch) throw batchNotFound();
    if (batch.status !== 'ready') throw batchNotReady(batch.status);
    if (page > batch.pageCount) throw pageOutOfRange(batch.pageCount);
    await employeeForPayslip(query, employeeId);
    await assignPageTo(query, batchId, page, employeeId);
  });
  return (await batchView(sql.query, batchId))!;
}
