import { z } from 'zod';
import { createEnvelope, isPlaceholderEmail, type EventData } from '@academy/contracts';
import { outboxInsertSql, outboxRow } from '@academy/messaging';
import type { Query } from './db.ts';
import type { PayslipEmployee } from './employees.ts';
import { duplicatePayslip } from './errors.ts';

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
  const [row] = await query<{ id: number }>(
    `insert into payslips (employee_id, label, period_start, period_end, issued_on, size_bytes, sha256, storage_key, batch_id, supersedes_id, created_at, created_by_user_id)
     values ($1, $2, $3::date, $4::date, $5::date, $6, $7, $8, $9, $10, $11, $12)
     on conflict (employee_id, sha256) where deleted_at is null and superseded_by_id is null do nothing returning id`,
    [
      employee.id,
      payslip.label,
      payslip.periodStart,
      payslip.periodEnd,
      payslip.issuedOn,
      payslip.sizeBytes,
      payslip.sha256,
      payslip.storageKey,
      payslip.batchId,
      payslip.supersedesId,
      payslip.createdAt,
      payslip.createdByUserId,
    ],
  );
  if (!row) throw duplicatePayslip();
  const type: PayslipEventType = payslip.supersedesId === null ? 'payslip.published' : 'payslip.corrected';
  const data: EventData<PayslipEventType> = {
    payslipId: row.id,
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
  await query(outboxInsertSql({ eventId: '$1::uuid', type: '$2::text', envelope: '$3::jsonb', traceContext: '$4::jsonb' }), outboxRow(envelope));
  return row.id;
}

/** The visible payslips (neither deleted nor superseded) that already are one of these files of these employees, by `employeeId:sha256`. */
export async function visiblePayslipsByFile(query: Query, files: { employeeId: number; sha256: string }[]): Promise<Map<string, number>> {
  if (!files.length) return new Map();
  const rows = await query<{ id: number; employeeId: number; sha256: string }>(
    `select p.id, p.employee_id as "employeeId", p.sha256 from payslips p
     join unnest($1::int[], $2::text[]) as f(employee_id, sha256) on f.employee_id = p.employee_id and f.sha256 = p.sha256
     where p.deleted_at is null and p.superseded_by_id is null`,
    [files.map((file) => file.employeeId), files.map((file) => file.sha256)],
  );
  return new Map(rows.map((row) => [`${row.employeeId}:${row.sha256}`, row.id]));
}

/** Of these employees, those with a visible payslip whose period overlaps `periodStart`–`periodEnd`: the only ones a batch's run can duplicate in practice. */
export async function employeesWithPayslipsIn(query: Query, employeeIds: number[], periodStart: string, periodEnd: string): Promise<Set<number>> {
  if (!employeeIds.length) return new Set();
  const rows = await query<{ employeeId: number }>(
    `select distinct employee_id as "employeeId" from payslips
     where employee_id = any($1::int[]) and deleted_at is null and superseded_by_id is null and period_start <= $3::date and period_end >= $2::date`,
    [employeeIds, periodStart, periodEnd],
  );
  return new Set(rows.map((row) => row.employeeId));
}
