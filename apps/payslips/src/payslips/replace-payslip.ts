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
export async function replacePayslip(ctx: PayslipsContext, actor: Actor, payslipId: number, fields: PayslipReplaceFields, pdf: ReceivedPdf, signal: AbortSignal): Promise<AdminPayslip> {
  const { sql, storage, relay, clock } = ctx;
  try {
    await checkPdf(ctx, pdf.bytes, 'payslip', signal);
    const at = clock.now();
    const id = await sql.transaction(async (query) => {
      const old = await lockPayslip(query, payslipId);
      if (!old) throw payslipNotFound();
      if (old.deleted) throw payslipDeleted();
      if (old.superseded) throw payslipSuperseded();
      const payslip = {
        label: fields.label ?? old.label,
        periodStart: fields.periodStart ?? old.periodStart,
        periodEnd: fields.periodEnd ?? old.periodEnd,
        issuedOn: fields.issuedOn ?? dayIn(at, ctx.config.ACADEMY_TIME_ZONE),
        sizeBytes: pdf.sizeBytes,
        sha256: pdf.sha256,
        storageKey: pdf.storageKey,
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
      stillWanted(signal);
      return id;
    });
    // Under an Idempotency-Key the request's own commit comes later: the file goes if that rolls back.
    onRollback(() => storage.remove(pdf.storageKey));
    await afterCommit(() => relay.nudge());
    return (await readAdminPayslip(sql.query, id))!;
  } catch (error) {
    await storage.remove(pdf.storageKey).catch(() => undefined);
    throw error;
  }
}
