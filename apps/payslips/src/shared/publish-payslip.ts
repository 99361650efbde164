import { z } from 'zod';
import { createEnvelope, isPlaceholderEmail, type EventData } from '@academy/contracts';
import type { Query } from './db.ts';
import type { PayslipEmployee } from './employees.store.ts';
import { duplicatePayslip } from './errors.ts';
import { insertOutboxEvent, insertPayslip } from './published-payslips.store.ts';

// A payslip is published by an upload, a correction and a batch's publication: its row and its event
// are written here, in the caller's transaction, so each of them commits with what it announces.

export type PayslipEventType = 'payslip.published' | 'payslip.corrected';

export interface NewPayslip {
  label: string;
  periodStart: string;
  periodEnd: string;
  issuedOn: string;
  sizeBytes: number;
  sha256: string;
  storageKey: string;
  batchId: number | null;
  /** The payslip this one corrects. */
  supersedesId: number | null;
  createdByUserId: number | null;
  createdAt: Date;
}

const deliverable = (email: string | null) => (email !== null && z.email().safeParse(email).success && !isPlaceholderEmail(email) ? email : null);

/**
 * Inserts the payslip of `employee` and its `payslip.published` (or, when it supersedes another,
 * `payslip.corrected`) event; the same file as a visible payslip of the employee (neither deleted nor
 * superseded: a correction may go back to an earlier file) is 409 DUPLICATE_PAYSLIP. The event carries no amounts, no file, no tax id. Answers the payslip's id.
 */
export async function publishPayslip(query: Query, payslip: NewPayslip, employee: PayslipEmployee, correlationId: string): Promise<number> {
  const id = await insertPayslip(query, payslip, employee.id);
  if (id === null) throw duplicatePayslip();
  const type: PayslipEventType = payslip.supersedesId === null ? 'payslip.published' : 'payslip.corrected';
  const data: EventData<PayslipEventType> = {
    payslipId: id,
    employeeId: employee.id,
    employee: { name: employee.name, email: deliverable(employee.email), userId: employee.userId },
    label: payslip.label,
    periodStart: payslip.periodStart,
    periodEnd: payslip.periodEnd,
    issuedOn: payslip.issuedOn,
    supersedesPayslipId: payslip.supersedesId,
    batchId: payslip.batchId,
  };
  const envelope = createEnvelope(type, data, { source: 'payslips', correlationId, occurredAt: payslip.createdAt });
  await insertOutboxEvent(query, envelope);
  return id;
}
