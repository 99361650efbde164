import type { AdminPayslip, PayslipReplaceFields } from '@academy/contracts';
import { BadRequestError } from '@academy/kit';
import { afterCommit, onRollback } from '@academy/service';
import type { Actor } from '../shared/actor.ts';
import { checkPdf } from '../shared/check-pdf.ts';
import { dayIn } from '../shared/dates.ts';
import { employeeForPayslip } from '../shared/employees.ts';
import { recordPayslipEvent } from '../shared/events.ts';
import type { Payslips } from '../shared/payslips-context.ts';
import type { ReceivedPdf } from '../shared/uploads.ts';
import { payslipDeleted, payslipNotFound, payslipSuperseded } from './payslips.errors.ts';
import { insertPayslip, lockPayslip, readAdminPayslip } from './payslips.store.ts';

/**
 * Admin: a correction. The new payslip supersedes the old one (kept, hidden from the employee) and
 * `payslip.corrected` tells the employee it is a correction; all three commit together. What the
 * fields leave out (label, period) is kept from the corrected payslip.
 */
export async function replacePayslip(payslips: Payslips, actor: Actor, payslipId: number, fields: PayslipReplaceFields, pdf: ReceivedPdf): Promise<AdminPayslip> {
  const { sql, storage, relay, now } = payslips;
  try {
    await checkPdf(payslips, pdf.bytes, { requireText: false });
    const at = now();
    const id = await sql.transaction(async (query) => {
      const old = await lockPayslip(query, payslipId);
      if (!old) throw payslipNotFound();
      if (old.deleted) throw payslipDeleted();
      if (old.superseded) throw payslipSuperseded();
      const payslip = {
        label: fields.label ?? old.label,
        periodStart: fields.periodStart ?? old.periodStart,
        periodEnd: fields.periodEnd ?? old.periodEnd,
        issuedOn: fields.issuedOn ?? dayIn(at, payslips.config.ACADEMY_TIME_ZONE),
        supersedesId: old.id,
        batchId: null,
      };
      if (payslip.periodEnd < payslip.periodStart)
        throw new BadRequestError('VALIDATION_ERROR', 'Invalid request: periodEnd: `periodEnd` must not be before `periodStart`', [
          { path: 'periodEnd', message: '`periodEnd` must not be before `periodStart`' },
        ]);
      const employee = await employeeForPayslip(query, old.employeeId);
      const id = await insertPayslip(query, { ...payslip, employeeId: employee.id, sizeBytes: pdf.sizeBytes, sha256: pdf.sha256, storageKey: pdf.storageKey, createdByUserId: actor.userId, createdAt: at });
      await query(`update payslips set superseded_by_id = $2, superseded_at = $3 where id = $1`, [old.id, id, at]);
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
