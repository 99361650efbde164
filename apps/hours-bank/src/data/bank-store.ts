import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventEnvelope } from '@academy/contracts';
import type { Totals } from '../domain/offsetting.ts';

// The write path in raw SQL. Each operation is one transaction of two statements: the first takes
// the bank's row lock (after the unlocked checks it needs) and returns the totals; the second, once
// the new totals are computed, writes the bank, the rows and the outbox events at once. The lock is
// held for one round trip plus the commit. Lock order: the bank row, then transaction rows.

async function query<T>(em: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  return em.getConnection().execute<T[]>(sql, params, 'all', em.getTransactionContext());
}

const totalsOf = (row: { pending_minutes: number; completed_minutes: number }): Totals => ({
  pendingMinutes: row.pending_minutes,
  completedMinutes: row.completed_minutes,
});

export interface LockedBank {
  bankId: number;
  schoolCourseId: number;
  totals: Totals;
  transactionId: number;
}

export type LockOutcome = LockedBank | { missing: 'employee' | 'schoolCourse' };

/**
 * One statement: checks the employee, resolves the school course (the given one, or the latest by
 * start date), creates the bank if needed and locks it (the upsert's update takes the row lock and
 * returns the latest totals), and allocates the new transaction's id.
 */
export async function lockBankOfEmployee(em: EntityManager, employeeId: number, schoolCourseId: number | null): Promise<LockOutcome> {
  const [row] = await query<{
    employee_exists: boolean;
    school_course_id: number | null;
    bank_id: number | null;
    pending_minutes: number;
    completed_minutes: number;
    transaction_id: number;
  }>(
    em,
    `with emp as (select id from employees where id = ? and not deleted),
     course as (select id from school_courses where not deleted and (?::int is null or id = ?::int) order by start_date desc nulls last, id desc limit 1),
     bank as (
       insert into hours_banks as b (employee_id, school_course_id, pending_minutes, completed_minutes, created_at, updated_at)
       select emp.id, course.id, 0, 0, now(), now() from emp cross join course
       on conflict (employee_id, school_course_id) do update set updated_at = excluded.updated_at
       returning b.id, b.pending_minutes, b.completed_minutes
     )
     select exists (select 1 from emp) as employee_exists, (select id from course) as school_course_id,
       bank.id as bank_id, bank.pending_minutes, bank.completed_minutes, nextval('hours_transactions_id_seq')::int as transaction_id
     from (select 1) as one left join bank on true`,
    [employeeId, schoolCourseId, schoolCourseId],
  );
  if (!row!.employee_exists) return { missing: 'employee' };
  if (row!.school_course_id === null || row!.bank_id === null) return { missing: 'schoolCourse' };
  return { bankId: row!.bank_id, schoolCourseId: row!.school_course_id, totals: totalsOf(row!), transactionId: row!.transaction_id };
}

export interface LockedTransaction {
  id: number;
  hoursBankId: number;
  employeeId: number;
  schoolCourseId: number;
  type: 'COMPLETED' | 'PENDING' | 'REVERSAL';
  totalMinutes: number;
  /** May be stale (true) until the guarded write; a row once inactive never becomes active again. */
  isActive: boolean;
  reason: string | null;
  transactionDate: string;
  /** The bank's totals, read under its lock. */
  totals: Totals;
  /** Ids allocated for the rows an edit or a delete will write. */
  newIds: number[];
}

/** One statement: locks the bank of a transaction and reads the transaction's (immutable) fields. */
export async function lockBankOfTransaction(em: EntityManager, transactionId: number, idsNeeded: 1 | 2): Promise<LockedTransaction | null> {
  const [row] = await query<{
    id: number;
    hours_bank_id: number;
    employee_id: number;
    school_course_id: number;
    type: LockedTransaction['type'];
    total_minutes: number;
    is_active: boolean;
    reason: string | null;
    transaction_date: string;
    pending_minutes: number;
    completed_minutes: number;
    new_ids: number[];
  }>(
    em,
    `select t.id, t.hours_bank_id, b.employee_id, b.school_course_id, t.type, t.total_minutes, t.is_active, t.reason,
       t.transaction_date::text as transaction_date, b.pending_minutes, b.completed_minutes,
       array(select nextval('hours_transactions_id_seq')::int from generate_series(1, ?)) as new_ids
     from hours_banks b join hours_transactions t on t.hours_bank_id = b.id where t.id = ?
     for update of b`,
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
    totals: totalsOf(row),
    newIds: row.new_ids,
  };
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
const INSERT_ROWS =
  'insert into hours_transactions (id, hours_bank_id, school_course_id, transaction_date, type, total_minutes, pending_affected_minutes, completed_affected_minutes, reason, is_active, reverses_transaction_id, replaces_transaction_id, created_at, created_by)';
const OUTBOX_VALUES = '(?::uuid, ?::text, ?::jsonb, now(), now(), 0)';
const INSERT_OUTBOX = 'insert into outbox (event_id, type, envelope, created_at, available_at, attempts)';
const outboxParams = (event: EventEnvelope) => [event.id, event.type, JSON.stringify(event)];
const values = <T>(items: T[], template: string) => items.map(() => template).join(', ');

export interface Write {
  bankId: number;
  totals: Totals;
  rows: NewTransactionRow[];
  events: EventEnvelope[];
}

/** Under the lock, one statement: the bank's totals, the new row(s) and their outbox events. */
export async function writeOperation(em: EntityManager, write: Write): Promise<void> {
  await query(
    em,
    `with bank as (update hours_banks set pending_minutes = ?, completed_minutes = ?, updated_at = now() where id = ?),
     events as (${INSERT_OUTBOX} values ${values(write.events, OUTBOX_VALUES)})
     ${INSERT_ROWS} values ${values(write.rows, ROW_VALUES)}`,
    [
      write.totals.pendingMinutes,
      write.totals.completedMinutes,
      write.bankId,
      ...write.events.flatMap(outboxParams),
      ...write.rows.flatMap((row) => rowParams(write.bankId, row)),
    ],
  );
}

/**
 * Under the lock, one statement: deactivates `originalId` and, only if it was still active, writes
 * the totals, the new rows and the events. Returns false (nothing written) when it was not.
 */
export async function writeUndo(em: EntityManager, originalId: number, write: Write): Promise<boolean> {
  const [row] = await query<{ undone: number }>(
    em,
    `with original as (update hours_transactions set is_active = false where id = ? and is_active and type <> 'REVERSAL' returning id),
     bank as (update hours_banks set pending_minutes = ?, completed_minutes = ?, updated_at = now() where id = ? and exists (select 1 from original)),
     events as (${INSERT_OUTBOX} select * from (values ${values(write.events, OUTBOX_VALUES)}) as v where exists (select 1 from original)),
     inserted as (${INSERT_ROWS} select * from (values ${values(write.rows, ROW_VALUES)}) as v where exists (select 1 from original))
     select count(*)::int as undone from original`,
    [
      originalId,
      write.totals.pendingMinutes,
      write.totals.completedMinutes,
      write.bankId,
      ...write.events.flatMap(outboxParams),
      ...write.rows.flatMap((row) => rowParams(write.bankId, row)),
    ],
  );
  return row!.undone === 1;
}
