import type { Actor } from '@academy/auth';
import type { AdminPayslip, PayslipUploadFields } from '@academy/contracts';
import { afterCommit, onRollback } from '@academy/service';
import { checkPdf, stillWanted } from '../shared/check-pdf.ts';
import { dayIn } from '../shared/dates.ts';
import { employeeForPayslip } from '../shared/employees.store.ts';
import type { PayslipsContext } from '../shared/payslips-context.ts';
import { publishPayslip } from '../shared/publish-payslip.ts';
import type { ReceivedPdf } from '../shared/uploads.ts';
import { readAdminPayslip } from './payslips.store.ts';

/**
 * Admin: one payslip for an employee. The PDF is already stored (encrypted); it is opened in a
 * worker, then the payslip and its `payslip.published` event commit together. On any refusal the
 * stored file is removed: nothing of a refused upload remains, nor of one whose request went away
 * (`signal`: the gateway's 504, a client that closed) before its transaction commits.
 */
export type UploadPayslipInput = PayslipUploadFields & { pdf: ReceivedPdf; signal: AbortSignal };

export async function uploadPayslip(ctx: PayslipsContext, input: UploadPayslipInput, actor: Actor): Promise<AdminPayslip> {
  try {
    await checkPdf(ctx, input.pdf.bytes, 'payslip', input.signal);
    const at = ctx.clock.now();
    const id = await ctx.sql.transaction(async (query) => {
      const employee = await employeeForPayslip(query, input.employeeId);
      const payslip = {
        label: input.label,
        periodStart: input.periodStart,
        periodEnd: input.periodEnd,
        issuedOn: input.issuedOn ?? dayIn(at, ctx.config.ACADEMY_TIME_ZONE),
        sizeBytes: input.pdf.sizeBytes,
        sha256: input.pdf.sha256,
        storageKey: input.pdf.storageKey,
        supersedesId: null,
        batchId: null,
        createdByUserId: actor.userId,
        createdAt: at,
      };
      const id = await publishPayslip(query, payslip, employee, actor.correlationId);
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
