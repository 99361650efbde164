// The personal data request's SQL: an employee's payslips (every row held: visible, corrected, deleted, restricted), read and restricted.
import type { EntityManager } from '@mikro-orm/postgresql';
import { daySql, isoSql } from '../shared/db.ts';

const rows = <T>(em: EntityManager, sql: string, params: unknown[]) => em.getConnection().execute<T[]>(sql, params, 'all', em.getTransactionContext());

export interface PayslipExport {
  id: number;
  label: string;
  periodStart: string;
  periodEnd: string;
  issuedOn: string;
  sizeBytes: number;
  sha256: string;
  batchId: number | null;
  supersedesId: number | null;
  supersededById: number | null;
  supersededAt: string | null;
  publishedAt: string;
  /** The view log: their first download (the receipt). */
  firstViewedAt: string | null;
  deletedAt: string | null;
  deleteReason: string | null;
  restrictedAt: string | null;
  storageKey: string;
}

/** Every payslip row of the employee, oldest period first. */
export async function employeePayslips(em: EntityManager, employeeId: number): Promise<PayslipExport[]> {
  return rows<PayslipExport>(
    em,
    `select id, label, ${daySql('period_start')} as "periodStart", ${daySql('period_end')} as "periodEnd", ${daySql('issued_on')} as "issuedOn", size_bytes as "sizeBytes", sha256,
            batch_id as "batchId", supersedes_id as "supersedesId", superseded_by_id as "supersededById", ${isoSql('superseded_at')} as "supersededAt",
            ${isoSql('created_at')} as "publishedAt", ${isoSql('first_viewed_at')} as "firstViewedAt", ${isoSql('deleted_at')} as "deletedAt", delete_reason as "deleteReason",
            ${isoSql('restricted_at')} as "restrictedAt", storage_key as "storageKey"
       from payslips where employee_id = ? order by period_start, issued_on, id`,
    [employeeId],
  );
}

/**
 * Restricts every payslip of the employee from `now` (kept for the retention, never listed, downloaded
 * or corrected again; the purge removes them with the hidden ones); answers how many there are and the
 * latest end of their periods. The employee's replica row is locked first, until the erasure commits.
 */
export async function restrictEmployeePayslips(em: EntityManager, employeeId: number, now: Date): Promise<{ count: number; newlyRestricted: number; lastPeriodEnd: string | null }> {
  // A payslip is published under its employee's row shared-locked: one committed before this lock is
  // restricted below (the statement's snapshot comes after it), one after it finds the employee erased.
  await rows(em, `select 1 from employees where id = ? for update`, [employeeId]);
  const [row] = await rows<{ count: number; newlyRestricted: number; lastPeriodEnd: string | null }>(
    em,
    `with restricted as (update payslips set restricted_at = ? where employee_id = ? and restricted_at is null returning 1)
     select count(*)::int as count, (select count(*)::int from restricted) as "newlyRestricted", to_char(max(period_end), 'YYYY-MM-DD') as "lastPeriodEnd"
       from payslips where employee_id = ?`,
    [now, employeeId, employeeId],
  );
  return row!;
}
