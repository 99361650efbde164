import type { AdminPayslipsQuery, MyPayslipsQuery } from '@academy/contracts';
import type { Payslips } from '../shared/payslips-context.ts';
import { listForAdmin, listMine } from './payslips.store.ts';

/** The employee's own payslips (deleted and corrected ones are gone from here at once), newest first. */
export async function listMyPayslips(payslips: Payslips, employeeId: number, filter: MyPayslipsQuery) {
  return { data: await listMine(payslips.sql.query, employeeId, filter.year) };
}

/** Admin: every payslip with its receipt and history, newest first, a page at a time. */
export async function listPayslips(payslips: Payslips, filter: AdminPayslipsQuery) {
  return listForAdmin(payslips.sql.query, filter);
}
