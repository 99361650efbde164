import type { AdminPayslip } from '@academy/contracts';
import type { Actor } from '@academy/auth';
import type { PayslipsContext } from '../shared/payslips-context.ts';
import { payslipDeleted, payslipNotFound, payslipSuperseded } from './payslips.errors.ts';
import { lockPayslip, markDeleted, readAdminPayslip } from './payslips.store.ts';

/**
 * Admin: deletes a payslip from the employee's view at once. The file and the audit (who, when,
 * why) stay until the retention period ends (`purgePayslips`).
 */
export async function deletePayslip(ctx: PayslipsContext, input: { payslipId: number; reason: string }, actor: Actor): Promise<AdminPayslip> {
  await ctx.sql.transaction(async (query) => {
    const payslip = await lockPayslip(query, input.payslipId);
    if (!payslip) throw payslipNotFound();
    if (payslip.deleted) throw payslipDeleted();
    if (payslip.superseded) throw payslipSuperseded();
    await markDeleted(query, input.payslipId, { at: ctx.clock.now(), byUserId: actor.userId, reason: input.reason });
  });
  return (await readAdminPayslip(ctx.sql.query, input.payslipId))!;
}
