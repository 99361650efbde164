import type { PayslipBatch } from '@academy/contracts';
import { employeeForPayslip } from '../shared/employees.ts';
import type { Payslips } from '../shared/payslips-context.ts';
import { batchNotFound, batchNotReady, pageOutOfRange } from './batches.errors.ts';
import { findBatch, showBatch } from './batches.store.ts';

/** Admin: a page of a ready batch belongs to this employee (whatever it names). */
export async function assignPage(payslips: Payslips, batchId: number, page: number, employeeId: number): Promise<PayslipBatch> {
  const { sql } = payslips;
  await sql.transaction(async (query) => {
    const batch = await findBatch(query, batchId, { lock: true });
    if (!batch) throw batchNotFound();
    if (batch.status !== 'ready') throw batchNotReady(batch.status);
    if (page > batch.pageCount) throw pageOutOfRange(batch.pageCount);
    await employeeForPayslip(query, employeeId);
    await query(`update payslip_batch_pages set assigned_employee_id = $3 where batch_id = $1 and page = $2`, [batchId, page, employeeId]);
  });
  return (await showBatch(sql.query, batchId))!;
}
