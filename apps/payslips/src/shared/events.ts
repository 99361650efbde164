import { z } from 'zod';
import { createEnvelope, isPlaceholderEmail, type EventData } from '@academy/contracts';
import type { Query } from './db.ts';
import type { PayslipEmployee } from './employees.ts';

export type PayslipEventType = 'payslip.published' | 'payslip.corrected';

export interface PublishedPayslip {
  id: number;
  label: string;
  periodStart: string;
  periodEnd: string;
  issuedOn: string;
  supersedesId: number | null;
  batchId: number | null;
}

const deliverable = (email: string | null) => (email !== null && z.email().safeParse(email).success && !isPlaceholderEmail(email) ? email : null);

/**
 * Adds `payslip.published` or `payslip.corrected` to the outbox inside the caller's transaction:
 * it commits with the payslip it announces, or not at all. No amounts, no file, no tax id.
 */
export async function recordPayslipEvent(query: Query, payslip: PublishedPayslip, employee: PayslipEmployee, meta: { correlationId: string; now: Date }): Promise<void> {
  const type: PayslipEventType = payslip.supersedesId === null ? 'payslip.published' : 'payslip.corrected';
  const data: EventData<PayslipEventType> = {
    payslipId: payslip.id,
    employeeId: employee.id,
    employee: { name: employee.name, email: deliverable(employee.email), userId: employee.userId },
    label: payslip.label,
    periodStart: payslip.periodStart,
    periodEnd: payslip.periodEnd,
    issuedOn: payslip.issuedOn,
    supersedesPayslipId: payslip.supersedesId,
    batchId: payslip.batchId,
  };
  const envelope = createEnvelope(type, data, { source: 'payslips', correlationId: meta.correlationId, occurredAt: meta.now });
  // The relay's own times are the database's (a pinned clock must not hold an event back).
  await query(`insert into outbox (event_id, type, envelope, created_at, available_at) values ($1::uuid, $2, $3::jsonb, now(), now())`, [envelope.id, envelope.type, JSON.stringify(envelope)]);
}
