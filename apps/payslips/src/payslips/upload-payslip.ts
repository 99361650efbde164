import type { AdminPayslip, PayslipUploadFields } from '@academy/contracts';
import { afterCommit, onRollback } from '@academy/service';
import type { Actor } from '../shared/actor.ts';
import { checkPdf } from '../shared/check-pdf.ts';
import { dayIn } from '../shared/dates.ts';
import { employeeForPayslip } from '../shared/employees.ts';
import { recordPayslipEvent } from '../shared/events.ts';
import type { Payslips } from '../shared/payslips-context.ts';
import type { ReceivedPdf } from '../shared/uploads.ts';
import { insertPayslip, readAdminPayslip } from './payslips.store.ts';

/**
 * Admin: one payslip for an employee. The PDF is already stored (encrypted); it is opened in a
 * worker, then the payslip and its `payslip.published` event commit together. On any refusal the
 * stored file is removed: nothing of a refused upload remains.
 */
export async function uploadPayslip(payslips: Payslips, actor: Actor, fields: PayslipUploadFields, pdf: ReceivedPdf): Promise<AdminPayslip> {
  const { sql, storage, relay, now } = payslips;
  try {
    await checkPdf(payslips, pdf.bytes, { requireText: false });
    const at = now();
    const id = await sql.transaction(async (query) => {
      const employee = await employeeForPayslip(query, fields.employeeId);
      const payslip = {
        label: fields.label,
        periodStart: fields.periodStart,
        periodEnd: fields.periodEnd,
        issuedOn: fields.issuedOn ?? dayIn(at, payslips.config.ACADEMY_TIME_ZONE),
        supersedesId: null,
        batchId: null,
      };
      const id = await insertPayslip(query, { ...payslip, employeeId: employee.id, sizeBytes: pdf.sizeBytes, sha256: pdf.sha256, storageKey: pdf.storageKey, createdByUserId: actor.userId, createdAt: at });
      await recordPayslipEvent(query, { ...payslip, id }, employee, { correlationId: actor.correlationId, now: at });
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
