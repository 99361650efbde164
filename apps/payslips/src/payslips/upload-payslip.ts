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
export async function uploadPayslip(ctx: PayslipsContext, actor: Actor, fields: PayslipUploadFields, pdf: ReceivedPdf, signal: AbortSignal): Promise<AdminPayslip> {
  const { sql, storage, relay, clock } = ctx;
  try {
    await checkPdf(ctx, pdf.bytes, 'payslip', signal);
    const at = clock.now();
    const id = await sql.transaction(async (query) => {
      const employee = await employeeForPayslip(query, fields.employeeId);
      const payslip = {
        label: fields.label,
        periodStart: fields.periodStart,
        periodEnd: fields.periodEnd,
        issuedOn: fields.issuedOn ?? dayIn(at, ctx.config.ACADEMY_TIME_ZONE),
        sizeBytes: pdf.sizeBytes,
        sha256: pdf.sha256,
        storageKey: pdf.storageKey,
        supersedesId: null,
        batchId: null,
        createdByUserId: actor.userId,
        createdAt: at,
      };
      const id = await publishPayslip(query, payslip, employee, actor.correlationId);
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
