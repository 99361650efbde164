import type { MyPayslipsQuery } from '@academy/contracts';
import type { PayslipsContext } from '../shared/payslips-context.ts';
import { listMine } from './payslips.store.ts';

/** The employee's own payslips (deleted and corrected ones are gone from here at once), newest first. */
export async function listMyPayslips(ctx: PayslipsContext, employeeId: number, filter: MyPayslipsQuery) {
  return { data: await listMine(ctx.sql.query, employeeId, filter.year) };
}
