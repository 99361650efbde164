// The personal data request's SQL: an employee's banks and their history, read and erased.
import type { EntityManager } from '@mikro-orm/postgresql';

/** An instant as ISO 8601 in UTC with milliseconds, as JSON dates are written. */
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const rows = <T>(em: EntityManager, sql: string, params: unknown[]) => em.getConnection().execute<T[]>(sql, params, 'all', em.getTransactionContext());

export interface BankExport {
  id: number;
  schoolCourseId: number;
  schoolCourseName: string | null;
  pendingMinutes: number;
  completedMinutes: number;
  createdAt: string;
  updatedAt: string;
  transactions: {
    id: number;
    transactionDate: string;
    type: string;
    totalMinutes: number;
    pendingAffectedMinutes: number;
    completedAffectedMinutes: number;
    reason: string | null;
    isActive: boolean;
    reversesTransactionId: number | null;
    replacesTransactionId: number | null;
    createdAt: string;
    createdBy: number | null;
  }[];
}

/** Every bank of the employee (oldest course first) with its whole history, in one query. */
export async function employeeBanks(em: EntityManager, employeeId: number): Promise<BankExport[]> {
  return rows<BankExport>(
    em,
    `select b.id, b.school_course_id as "schoolCourseId", c.name as "schoolCourseName", b.pending_minutes as "pendingMinutes", b.completed_minutes as "completedMinutes",
            ${iso('b.created_at')} as "createdAt", ${iso('b.updated_at')} as "updatedAt",
            coalesce((select json_agg(json_build_object('id', t.id, 'transactionDate', t.transaction_date, 'type', t.type, 'totalMinutes', t.total_minutes,
                        'pendingAffectedMinutes', t.pending_affected_minutes, 'completedAffectedMinutes', t.completed_affected_minutes, 'reason', t.reason,
                        'isActive', t.is_active, 'reversesTransactionId', t.reverses_transaction_id, 'replacesTransactionId', t.replaces_transaction_id,
                        'createdAt', ${iso('t.created_at')}, 'createdBy', t.created_by) order by t.id)
                      from hours_transactions t where t.hours_bank_id = b.id), '[]'::json) as transactions
       from hours_banks b left join school_courses c on c.id = b.school_course_id
      where b.employee_id = ? order by b.school_course_id, b.id`,
    [employeeId],
  );
}

/**
 * Deletes the employee's banks and their history; answers how many of each went. The employee's replica
 * row is locked first (until the erasure commits): an addition key-share locks it, so one running now is
 * deleted with the rest, and one after it finds the employee erased rather than creating the bank again.
 */
export async function deleteEmployeeBanks(em: EntityManager, employeeId: number): Promise<{ banks: number; transactions: number }> {
  await rows(em, `select 1 from employees where id = ? for update`, [employeeId]);
  const transactions = await rows<{ id: number }>(em, `delete from hours_transactions where hours_bank_id in (select id from hours_banks where employee_id = ?) returning id`, [employeeId]);
  const banks = await rows<{ id: number }>(em, `delete from hours_banks where employee_id = ? returning id`, [employeeId]);
  return { banks: banks.length, transactions: transactions.length };
}
