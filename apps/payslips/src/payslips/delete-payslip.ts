import type { AdminPayslip } from '@academy/contracts';
import type { Actor } from '../shared/actor.ts';
import type { Payslips } from '../shared/payslips-context.ts';
import { payslipDeleted, payslipNotFound, payslipSuperseded } from './payslips.errors.ts';
import { lockPayslip, readAdminPayslip } from './payslips.store.ts';

/**
 * Admin: deletes a payslip from the employee's view at once. The file and the audit (who, when,
 * why) stay until the retention period ends (`purgePayslips`).
 */
export async function deletePayslip(payslips: Payslips, actor: Actor, payslipId: number, reason: string): Promise<AdminPayslip> {
  const { sql, now } = payslips;
  await sql.transaction(async (query) => {
    const payslip = await lockPayslip(query, payslipId);
    if (!payslip) throw payslipNotFound();
    if (payslip.deleted) throw payslipDeleted();
    if (payslip.superseded) throw payslipSuperseded();
    await query(`update payslips set deleted_at = $2, deleted_by_user_id = $3, delete_reason = $4 where id = $1`, [payslipId, now(), actor.userId, reason]);
  });
  return (await readAdminPayslip(sql.query, payslipId))!;
}
