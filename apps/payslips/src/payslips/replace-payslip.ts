import type { Actor } from '@academy/auth';
import type { AdminPayslip, PayslipReplaceFields } from '@academy/contracts';
import { BadRequestError } from '@academy/kit';
import { afterCommit, onRollback } from '@academy/service';
import { checkPdf, stillWanted } from '../shared/check-pdf.ts';
import { dayIn } from '../shared/dates.ts';
import { employeeForPayslip } from '../shared/employees.store.ts';
import type { PayslipsContext } from '../shared/payslips-context.ts';
import { publishPayslip } from '../shared/publish-payslip.ts';
import type { ReceivedPdf } from '../shared/uploads.ts';
import { payslipDeleted, payslipNotFound, payslipSuperseded } from './payslips.errors.ts';
import { lockPayslip, markSuperseded, readAdminPayslip } from './payslips.store.ts';

/**
 * Admin: a correction. The new payslip supersedes the old one (kept, hidden from the employee) and
 * `payslip.corrected` tells the employee it is a correction; all three commit together. What the
 * fields leave out (label, period) is kept from the corrected payslip. Nothing is kept once `signal`
 * aborts (the request went away) before the transaction commits.
 */
export type ReplacePayslipInput = PayslipReplaceFields & { payslipId: number; pdf: ReceivedPdf; signal: AbortSignal };

export async function replacePayslip(ctx: PayslipsContext, input: ReplacePayslipInput, actor: Actor): Promise<AdminPayslip> {
  try {
    await checkPdf(ctx, input.pdf.bytes, 'payslip', input.signal);
    const at = ctx.clock.now();
    const id = await ctx.sql.transaction(async (query) => {
      const old = await lockPayslip(query, input.payslipId);
      if (!old) throw payslipNotFound();
      if (old.deleted) throw payslipDeleted();
      if (old.superseded) throw payslipSuperseded();
      const payslip = {
        label: input.label ?? old.label,
        periodStart: input.periodStart ?? old.periodStart,
        periodEnd: input.periodEnd ?? old.periodEnd,
        issuedOn: input.issuedOn ?? dayIn(at, ctx.config.ACADEMY_TIME_ZONE),
        sizeBytes: input.pdf.sizeBytes,
        sha256: input.pdf.sha256,
        storageKey: input.pdf.storageKey,
        supersedesId: old.id,
        batchId: null,
        createdByUserId: actor.userId,
        createdAt: at,
      };
      if (payslip.periodEnd < payslip.periodStart)
        throw new BadRequestError('VALIDATION_ERROR', 'Invalid request: periodEnd: `periodEnd` must not be before `periodStart`', [
          { path: 'periodEnd', message: '`periodEnd` must not be before `periodStart`' },
        ]);
      const employee = await employeeForPayslip(query, old.employeeId);
      const id = await publishPayslip(query, payslip, employee, actor.correlationId);
      await markSuperseded(query, old.id, id, at);
      stillWanted(input.signal);
      return id;
    });
    // Under an Idempotency-Key the request's own commit comes later: the file goes if that rolls back.
    onRollback(() => ctx.storage.remove(input.pdf.storageKey));
    await afterCommit(() => ctx.relay.nudge());
    return (await readAdminPayslip(ctx.sql.query, id))!;
  } catch (error) {
    await ctx.storage.remove(input.pdf.storageKey).catch(() => undefined);
    throw error;
  }
}
