import type { EventEnvelope } from '@academy/contracts';
import { outboxInsertSql, outboxRow } from '@academy/messaging';
import type { Query } from './db.ts';
import type { NewPayslip } from './publish-payslip.ts';

// The payslips table as both features write and read it when publishing (an upload, a correction, a
// batch's publication): the row, its event's outbox row, and what a batch checks for duplicates.

/** Inserts the payslip; null when the employee already has a visible payslip (neither deleted nor superseded) of the same file. */
export async function insertPayslip(query: Query, payslip: NewPayslip, employeeId: number): Promise<number | null> {
  const [row] = await query<{ id: number }>(
    `insert into payslips (employee_id, label, period_start, period_end, issued_on, size_bytes, sha256, storage_key, batch_id, supersedes_id, created_at, created_by_user_id)
     values ($1, $2, $3::date, $4::date, $5::date, $6, $7, $8, $9, $10, $11, $12)
     on conflict (employee_id, sha256) where deleted_at is null and superseded_by_id is null do nothing returning id`,
    [
      employeeId,
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
  return row?.id ?? null;
}

/** The event's outbox row, in the caller's transaction. */
export async function insertOutboxEvent(query: Query, envelope: EventEnvelope): Promise<void> {
  await query(outboxInsertSql({ eventId: '$1::uuid', type: '$2::text', envelope: '$3::jsonb', traceContext: '$4::jsonb' }), outboxRow(envelope));
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
