import type { EntityManager, PostgreSqlConnection } from '@mikro-orm/postgresql';
import type { EventEnvelope } from '@academy/contracts';
import { CHOSEN_SCHOOL_COURSE_SQL } from '@academy/replicas';

// The write path in raw SQL, two statements per operation:
//  1. read-only: check the employee, resolve the course and the bank (or read the transaction to
//     undo), allocate the new rows' ids. It writes nothing, so a refusal leaves no trace.
//  2. the change, one statement and so one transaction: lock the bank row (an addition creates it
//     there if missing, `INSERT … ON CONFLICT DO UPDATE`, which locks an existing one), undo the
//     original row if any (only while it is still active), set the totals, insert the rows and
//     their outbox events. The lock is held for the statement only: no round trip.
// Lock order: the bank row, then transaction rows.
// They run as named prepared statements on MikroORM's own `pg` pool: parsed and planned once per
// connection rather than on every request.

const preparedTexts = new Map<string, string>();

async function query<T>(em: EntityManager, name: string, sql: string, params: unknown[]): Promise<T[]> {
  let text = preparedTexts.get(name);
  if (text === undefined) {
    let index = 0;
    text = sql.replace(/\?/g, () => `$${++index}`);
    preparedTexts.set(name, text);
  }
  const pool = await (em.getConnection() as PostgreSqlConnection).getNativeClient();
  const result = await pool.query({ name: `hours-bank.${name}`, text, values: params });
  return result.rows as T[];
}

export interface BankTarget {
  employeeExists: boolean;
  schoolCourseId: number | null;
  /** The existing bank's id, or a fresh id (never used before) for the bank the change will create. */
  bankId: number;
  bankExists: boolean;
  transactionId: number;
}

/**
 * Checks the employee, resolves the school course (the given one, or the current one: the rule of
 * @academy/replicas) and its bank, and allocates the new transaction's id; one read-only statement
 * (sequence values aside). The bank itself is created, if missing, by the change (`applyChange`
 * with `createBank`), so nothing is left behind when the change does not happen.
 */
export async function resolveBank(em: EntityManager, employeeId: number, schoolCourseId: number | null): Promise<BankTarget> {
  const [row] = await query<{ employee_exists: boolean; school_course_id: number | null; bank_id: number | null; new_bank_id: number | null; transaction_id: number }>(
    em,
    'resolve-bank',
    `with course as (${CHOSEN_SCHOOL_COURSE_SQL}),
     bank as (select b.id from hours_banks b, course where b.employee_id = ?::int and b.school_course_id = course.id)
     select exists (select 1 from employees where id = ?::int and not deleted) as employee_exists,
       (select id from course) as school_course_id,
       (select id from bank) as bank_id,
       -- a fresh bank id only when the bank is missing, so the sequence is not spent on every addition
       case when not exists (select 1 from bank) then nextval('hours_banks_id_seq')::int end as new_bank_id,
       nextval('hours_transactions_id_seq')::int as transaction_id`,
    [schoolCourseId, schoolCourseId, employeeId, employeeId],
  );
  const r = row!;
  return {
    employeeExists: r.employee_exists,
    schoolCourseId: r.school_course_id,
    bankId: (r.bank_id ?? r.new_bank_id)!,
    bankExists: r.bank_id !== null,
    transactionId: r.transaction_id,
  };
}

export interface StoredTransaction {
  id: number;
  hoursBankId: number;
  employeeId: number;
  schoolCourseId: number;
  type: 'COMPLETED' | 'PENDING' | 'REVERSAL';
  totalMinutes: number;
  /** Read without the lock: the change re-checks it. A row once inactive never becomes active again. */
  isActive: boolean;
  reason: string | null;
  transactionDate: string;
  /** Ids allocated for the rows an edit or a delete will write. */
  newIds: number[];
}

/** Reads a transaction with its bank and allocates `idsNeeded` new transaction ids (no lock). */
export async function findTransaction(em: EntityManager, transactionId: number, idsNeeded: 1 | 2): Promise<StoredTransaction | null> {
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
    'find-transaction',
    `select t.id, t.hours_bank_id, b.employee_id, b.school_course_id, t.type, t.total_minutes, t.is_active, t.reason,
       t.transaction_date::text as transaction_date,
       array(select nextval('hours_transactions_id_seq')::int from generate_series(1, ?::int)) as new_ids
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

/**
 * A row the change inserts. `balanceChange` is what it adds to the bank's signed balance
 * (completed − pending); rows apply in order, and each row's pending/completed effect is
 * computed from the balance it found.
 */
export interface NewRow {
  id: number;
  balanceChange: number;
  schoolCourseId: number;
  transactionDate: string;
  type: 'COMPLETED' | 'PENDING' | 'REVERSAL';
  totalMinutes: number;
  reason: string | null;
  isActive: boolean;
  reversesTransactionId: number | null;
  replacesTransactionId: number | null;
  createdBy: number | null;
}

export interface Change {
  bankId: number;
  /**
   * The first addition to a bank names its employee and course: the change creates the bank with
   * `bankId` (a fresh id), in its own statement. A concurrent request may create it first; then
   * that bank is locked and used, in the rows and in the events' `hoursBankId`.
   */
  createBank?: { employeeId: number; schoolCourseId: number };
  /** The row to undo first; the change happens only if it is still active. */
  undoTransactionId: number | null;
  /** One or two rows (an edit writes its REVERSAL and the new row). */
  rows: [NewRow] | [NewRow, NewRow];
  events: EventEnvelope[];
}

/** Signed balances (completed − pending): before the change, after its first row, after its second. */
export interface Balances {
  before: number;
  afterFirst: number;
  afterSecond: number;
}

const ROW =
  '(?::int, ?::int, ?::int, ?::date, ?::text, ?::int, ?::text, ?::boolean, ?::int, ?::int, ?::int)';
const rowParams = (step: number, row: NewRow) => [
  step,
  row.id,
  row.schoolCourseId,
  row.transactionDate,
  row.type,
  row.totalMinutes,
  row.reason,
  row.isActive,
  row.reversesTransactionId,
  row.replacesTransactionId,
  row.createdBy,
];

/** The rows and events of a change, after a `totals (id, n0, n1, n2)` CTE: the bank and its balances. */
function insertRowsAndEvents(change: Change): { sql: string; params: unknown[] } {
  return {
    sql: `inserted as (
       insert into hours_transactions (id, hours_bank_id, school_course_id, transaction_date, type, total_minutes, pending_affected_minutes,
         completed_affected_minutes, reason, is_active, reverses_transaction_id, replaces_transaction_id, created_at, created_by)
       select v.id, t.id, v.school_course_id, v.transaction_date, v.type, v.total_minutes,
         case v.step when 1 then greatest(0, -t.n1) - greatest(0, -t.n0) else greatest(0, -t.n2) - greatest(0, -t.n1) end,
         case v.step when 1 then greatest(0, t.n1) - greatest(0, t.n0) else greatest(0, t.n2) - greatest(0, t.n1) end,
         v.reason, v.is_active, v.reverses, v.replaces, clock_timestamp(), v.created_by
       from totals t cross join (values ${change.rows.map(() => ROW).join(', ')})
         as v(step, id, school_course_id, transaction_date, type, total_minutes, reason, is_active, reverses, replaces, created_by)
     ),
     events as (
       insert into outbox (event_id, type, envelope, created_at, available_at, attempts)
       select v.event_id, v.type, jsonb_set(v.envelope, '{data,hoursBankId}', to_jsonb(t.id)), now(), now(), 0
       from totals t cross join (values ${change.events.map(() => '(?::uuid, ?::text, ?::jsonb)').join(', ')}) as v(event_id, type, envelope)
     )
     select n0, n1, n2 from totals`,
    params: [...change.rows.flatMap((r, i) => rowParams(i + 1, r)), ...change.events.flatMap((e) => [e.id, e.type, JSON.stringify(e)])],
  };
}

/**
 * The change, in one statement. Returns the balances it went through, or null when nothing was
 * written (the row to undo is no longer active). Pending = max(0, −balance), completed =
 * max(0, balance): the offsetting rules.
 */
export async function applyChange(em: EntityManager, change: Change): Promise<Balances | null> {
  const [first, second] = change.rows;
  const tail = insertRowsAndEvents(change);
  const [row] = change.createBank
    ? await query<{ n0: number; n1: number; n2: number }>(
        em,
        `apply-addition-${change.rows.length}-${change.events.length}`,
        // An addition (one row, nothing to undo): create the bank with the row's totals, or
        // (conflict on the employee and course) lock the existing one and add to its balance.
        `with input as (select ?::int as id, ?::int as employee_id, ?::int as school_course_id, ?::int as delta),
         bank as (
           insert into hours_banks as b (id, employee_id, school_course_id, pending_minutes, completed_minutes, created_at, updated_at)
           select id, employee_id, school_course_id, greatest(0, -delta), greatest(0, delta), now(), now() from input
           on conflict (employee_id, school_course_id) do update
             set pending_minutes = greatest(0, -(b.completed_minutes - b.pending_minutes + excluded.completed_minutes - excluded.pending_minutes)),
               completed_minutes = greatest(0, b.completed_minutes - b.pending_minutes + excluded.completed_minutes - excluded.pending_minutes),
               updated_at = now()
           returning b.id, b.completed_minutes - b.pending_minutes as balance
         ),
         totals as (select bank.id, bank.balance - input.delta as n0, bank.balance as n1, bank.balance as n2 from bank, input),
         ${tail.sql}`,
        [change.bankId, change.createBank.employeeId, change.createBank.schoolCourseId, first.balanceChange, ...tail.params],
      )
    : await query<{ n0: number; n1: number; n2: number }>(
        em,
        `apply-change-${change.rows.length}-${change.events.length}`,
        `with bank as (select id, completed_minutes - pending_minutes as n0 from hours_banks where id = ?::int for update),
         original as (
           update hours_transactions set is_active = false
           where id = ?::int and is_active and type <> 'REVERSAL' and exists (select 1 from bank)
           returning id
         ),
         step as (
           select bank.id, bank.n0, bank.n0 + ?::int as n1, bank.n0 + ?::int + ?::int as n2 from bank
           where ?::int is null or exists (select 1 from original)
         ),
         totals as (
           update hours_banks b set pending_minutes = greatest(0, -step.n2), completed_minutes = greatest(0, step.n2), updated_at = now()
           from step where b.id = step.id
           returning b.id, step.n0, step.n1, step.n2
         ),
         ${tail.sql}`,
        [
          change.bankId,
          change.undoTransactionId,
          first.balanceChange,
          first.balanceChange,
          second?.balanceChange ?? 0,
          change.undoTransactionId,
          ...tail.params,
        ],
      );
  return row ? { before: row.n0, afterFirst: row.n1, afterSecond: row.n2 } : null;
}
