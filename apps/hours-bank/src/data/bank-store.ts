import type { EntityManager } from '@mikro-orm/postgresql';
import type { Totals } from '../domain/offsetting.ts';

// The write path in raw SQL: each operation is one transaction whose bank-row lock is held for as
// few round trips as possible (lock; one statement writing everything; commit). Everything that
// needs no lock (checks, bank creation, id allocation) runs before the lock is taken.

async function query<T>(em: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  return em.getConnection().execute<T[]>(sql, params, 'all', em.getTransactionContext());
}

export interface BankTarget {
  employeeExists: boolean;
  schoolCourseId: number | null;
  bankId: number | null;
  transactionId: number;
}

/**
 * Checks the employee and resolves the school course (the given one, or the latest by start
 * date), creates the bank when missing, and allocates the new transaction's id: one statement.
 * `bankId` is null when a concurrent request created the bank after this statement's snapshot.
 */
export async function resolveBankForWrite(em: EntityManager, employeeId: number, schoolCourseId: number | null): Promise<BankTarget> {
  const [row] = await query<{ employee_exists: boolean; school_course_id: number | null; bank_id: number | null; transaction_id: number }>(
    em,
    `with emp as (select id from employees where id = ? and not deleted),
     course as (select id from school_courses where not deleted and (?::int is null or id = ?::int) order by start_date desc nulls last, id desc limit 1),
     created as (
       insert into hours_banks (employee_id, school_course_id, pending_minutes, completed_minutes, created_at, updated_at)
       select emp.id, course.id, 0, 0, now(), now() from emp cross join course
       on conflict (employee_id, school_course_id) do nothing
       returning id
     )
     select exists (select 1 from emp) as employee_exists,
       (select id from course) as school_course_id,
       coalesce((select id from created), (select b.id from hours_banks b, emp, course where b.employee_id = emp.id and b.school_course_id = course.id)) as bank_id,
       nextval('hours_transactions_id_seq')::int as transaction_id`,
    [employeeId, schoolCourseId, schoolCourseId],
  );
  return { employeeExists: row!.employee_exists, schoolCourseId: row!.school_course_id, bankId: row!.bank_id, transactionId: row!.transaction_id };
}

export interface StoredTransaction {
  id: number;
  hoursBankId: number;
  employeeId: number;
  schoolCourseId: number;
  type: 'COMPLETED' | 'PENDING' | 'REVERSAL';
  totalMinutes: number;
  isActive: boolean;
  reason: string | null;
  transactionDate: string;
  /** Ids allocated for the rows an edit or a delete will write. */
  newIds: number[];
}

/** Reads a transaction with its bank and allocates `idsNeeded` new transaction ids (no lock). */
export async function findTransactionForWrite(em: EntityManager, transactionId: number, idsNeeded: 1 | 2): Promise<StoredTransaction | null> {
  const [row] = await query<{
    id: number;
    hours_bank_id: number;
    employee_id: number;
    school_course_id: number;
    type: StoredTransaction['type'];
    total_minutes: number;
    is_active: boolean;
    reason: string | null;
    transaction_date: string;
    new_ids: number[];
  }>(
    em,
    `select t.id, t.hours_bank_id, b.employee_id, b.school_course_id, t.type, t.total_minutes, t.is_active, t.reason,
       t.transaction_date::text as transaction_date,
       array(select nextval('hours_transactions_id_seq')::int from generate_series(1, ?)) as new_ids
     from hours_transactions t join hours_banks b on b.id = t.hours_bank_id where t.id = ?`,
    [idsNeeded, transactionId],
  );
  if (!row) return null;
  return {
    id: row.id,
    hoursBankId: row.hours_bank_id,
    employeeId: row.employee_id,
    schoolCourseId: row.school_course_id,
    type: row.type,
    totalMinutes: row.total_minutes,
    isActive: row.is_active,
    reason: row.reason,
    transactionDate: row.transaction_date,
    newIds: row.new_ids,
  };
}

/** Takes the bank's row lock (held until commit) and returns its current totals. */
export async function lockBank(em: EntityManager, bankId: number): Promise<Totals> {
  const [row] = await query<{ pending_minutes: number; completed_minutes: number }>(
    em,
    'select pending_minutes, completed_minutes from hours_banks where id = ? for update',
    [bankId],
  );
  return { pendingMinutes: row!.pending_minutes, completedMinutes: row!.completed_minutes };
}

export interface NewTransactionRow {
  id: number;
  schoolCourseId: number;
  transactionDate: string;
  type: 'COMPLETED' | 'PENDING' | 'REVERSAL';
  totalMinutes: number;
  pendingAffected: number;
  completedAffected: number;
  reason: string | null;
  isActive: boolean;
  reversesTransactionId: number | null;
  replacesTransactionId: number | null;
  createdBy: number | null;
}

const ROW_VALUES = '(?::int, ?::int, ?::int, ?::date, ?::text, ?::int, ?::int, ?::int, ?::text, ?::boolean, ?::int, ?::int, clock_timestamp(), ?::int)';
const rowParams = (bankId: number, row: NewTransactionRow) => [
  row.id,
  bankId,
  row.schoolCourseId,
  row.transactionDate,
  row.type,
  row.totalMinutes,
  row.pendingAffected,
  row.completedAffected,
  row.reason,
  row.isActive,
  row.reversesTransactionId,
  row.replacesTransactionId,
  row.createdBy,
];
const INSERT_COLUMNS =
  'insert into hours_transactions (id, hours_bank_id, school_course_id, transaction_date, type, total_minutes, pending_affected_minutes, completed_affected_minutes, reason, is_active, reverses_transaction_id, replaces_transaction_id, created_at, created_by)';

/** Under the lock, in one statement: sets the bank's totals and inserts the new row(s). */
export async function writeOperation(em: EntityManager, bankId: number, totals: Totals, rows: NewTransactionRow[]): Promise<void> {
  await query(
    em,
    `with bank as (update hours_banks set pending_minutes = ?, completed_minutes = ?, updated_at = now() where id = ?)
     ${INSERT_COLUMNS} values ${rows.map(() => ROW_VALUES).join(', ')}`,
    [totals.pendingMinutes, totals.completedMinutes, bankId, ...rows.flatMap((row) => rowParams(bankId, row))],
  );
}

/**
 * Under the lock, in one statement: deactivates `originalId` and, only if it was still active,
 * sets the totals and inserts the new rows. Returns false (and writes nothing) when it was not.
 */
export async function writeUndo(em: EntityManager, bankId: number, originalId: number, totals: Totals, rows: NewTransactionRow[]): Promise<boolean> {
  const [row] = await query<{ undone: number }>(
    em,
    `with original as (update hours_transactions set is_active = false where id = ? and is_active and type <> 'REVERSAL' returning id),
     bank as (update hours_banks set pending_minutes = ?, completed_minutes = ?, updated_at = now() where id = ? and exists (select 1 from original)),
     inserted as (${INSERT_COLUMNS} select * from (values ${rows.map(() => ROW_VALUES).join(', ')}) as v where exists (select 1 from original) returning id)
     select count(*)::int as undone from original`,
    [originalId, totals.pendingMinutes, totals.completedMinutes, bankId, ...rows.flatMap((r) => rowParams(bankId, r))],
  );
  return row!.undone === 1;
}
