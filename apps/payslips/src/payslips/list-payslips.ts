import type { Actor } from '@academy/auth';
import type { AdminPayslipsQuery } from '@academy/contracts';
import type { PayslipsContext } from '../shared/payslips-context.ts';
import { listForAdmin } from './payslips.store.ts';

/** Admin: every payslip with its receipt and history, newest first, a page at a time. */
export async function listPayslips(ctx: PayslipsContext, input: AdminPayslipsQuery, _actor: Actor) {
  return listForAdmin(ctx.sql.query, input);
}
