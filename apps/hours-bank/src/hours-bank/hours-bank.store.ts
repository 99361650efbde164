import type { EntityManager } from '@mikro-orm/postgresql';
import { numberedPlaceholders, Sql } from '@academy/db';
import { outboxInsertSql, outboxRow } from '@academy/messaging';
import type { EventEnvelope } from '@academy/contracts';
import type { KeyColumns, StatementKey } from '@academy/service';
import { CHOSEN_SCHOOL_COURSE_SQL, EmployeeReplica, chosenSchoolCourseId } from '@academy/replicas';
import { HoursBank, HoursTransaction } from './hours-bank.entities.ts';
import type { Totals } from './offsetting.ts';

// The only code of hours-bank that knows its tables: the reads through MikroORM, the writes in raw SQL.
//
// The write path in raw SQL.
//  - An addition is one statement, and so one transaction: check the employee, resolve the course,
//    lock the bank row (`SELECT … FOR UPDATE`) or create the bank when this is its first operation
//    (`INSERT … ON CONFLICT DO UPDATE`, which also covers a bank created meanwhile), set the totals,
//    insert the row and its outbox event. One round trip; a refusal writes nothing. With an
//    Idempotency-Key the same statement records the key (`KEYED_ADDITION`): still one round trip.
//  - An edit or a delete is two: an unlocked read of the transaction to undo (allocating the new
//    rows' ids), then the change in one statement: lock the bank row, undo the original row (only
//    while it is still active), set the totals, insert the rows and their outbox events.
// No lock is held across a round trip. Lock order: the bank row, then transaction rows.
// They run as named prepared statements on MikroORM's own `pg` pool: parsed and planned once per
// connection rather than on every request.

/** `?` placeholders become `$n` once per statement; `Sql` prepares it once per connection (or joins the request's transaction). */
function query<T>(em: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  return new Sql(em).query<T>(numberedPlaceholders(sql), params);
}

/** A placeholder in an addition's event for an id only its statement knows, which the statement writes in. */
export const SET_BY_THE_STATEMENT = 1;

export interface Addition {
  employeeId: number;
  /** Null: the current school course. */
  schoolCourseId: number | null;
  type: 'COMPLETED' | 'PENDING';
  /** What the row adds to the bank's signed balance (completed − pending). */
  balanceChange: number;
  totalMinutes: number;
  transactionDate: string;
  reason: string | null;
  createdBy: number | null;
  /**
   * Its `hours-bank.transaction.recorded` event; `transactionId`, `hoursBankId` and `schoolCourseId`
   * are set by the statement (`SET_BY_THE_STATEMENT` until then).
   */
  event: EventEnvelope;
}

export type AdditionResult =
  | { outcome: 'employee_not_found' }
  | { outcome: 'school_course_not_found' }
  | { outcome: 'added'; schoolCourseId: number; transactionId: number; bankId: number; balances: Balances };

// An addition's steps after its `input` (the employee and the signed change): check the employee,
// resolve the course, lock or create the bank, set the totals, insert the row and its event, and
// `answer` what happened (one row, also when nothing was written).
// The employee's row is key-share locked: an erasure (which locks it `for update` before deleting the
// banks) commits first and the addition finds the employee deleted, instead of creating the bank again.
const ADDITION_STEPS = `emp as (select e.id from employees e, input where e.id = input.employee_id and not e.deleted for key share of e),
     course as (${CHOSEN_SCHOOL_COURSE_SQL}),
     target as (select emp.id as employee_id, course.id as school_course_id, nextval('hours_transactions_id_seq')::int as transaction_id from emp, course),
     locked as (
       select b.id, b.completed_minutes - b.pending_minutes as balance_before from hours_banks b, target t
       where b.employee_id = t.employee_id and b.school_course_id = t.school_course_id
       for update of b
     ),
     updated as (
       update hours_banks b set pending_minutes = greatest(0, -(l.balance_before + input.delta)), completed_minutes = greatest(0, l.balance_before + input.delta), updated_at = now()
       from locked l, input where b.id = l.id
       returning b.id, l.balance_before, l.balance_before + input.delta as balance_after
     ),
     -- The first operation creates the bank; one created by a concurrent request meanwhile is locked and added to.
     created as (
       insert into hours_banks as b (employee_id, school_course_id, pending_minutes, completed_minutes, created_at, updated_at)
       select t.employee_id, t.school_course_id, greatest(0, -input.delta), greatest(0, input.delta), now(), now()
       from target t, input where not exists (select 1 from locked)
       on conflict (employee_id, school_course_id) do update
         set pending_minutes = greatest(0, -(b.completed_minutes - b.pending_minutes + excluded.completed_minutes - excluded.pending_minutes)),
           completed_minutes = greatest(0, b.completed_minutes - b.pending_minutes + excluded.completed_minutes - excluded.pending_minutes),
           updated_at = now()
       returning b.id, b.completed_minutes - b.pending_minutes as balance_after
     ),
     totals as (
       select id, balance_before, balance_after from updated
       union all
       select created.id, created.balance_after - input.delta, created.balance_after from created, input
     ),
     inserted as (
       insert into hours_transactions (id, hours_bank_id, school_course_id, transaction_date, type, total_minutes, pending_affected_minutes,
         completed_affected_minutes, reason, is_active, reverses_transaction_id, replaces_transaction_id, created_at, created_by)
       select tg.transaction_id, t.id, tg.school_course_id, ?::date, ?::text, ?::int,
         greatest(0, -t.balance_after) - greatest(0, -t.balance_before), greatest(0, t.balance_after) - greatest(0, t.balance_before),
         ?::text, true, null, null, clock_timestamp(), ?::int
       from totals t, target tg
     ),
     events as (
       ${outboxInsertSql({
         eventId: '?::uuid',
         type: '?::text',
         envelope: `jsonb_set(jsonb_set(jsonb_set(?::jsonb, '{data,transactionId}', to_jsonb(tg.transaction_id)), '{data,hoursBankId}', to_jsonb(t.id)),
           '{data,schoolCourseId}', to_jsonb(tg.school_course_id))`,
         traceContext: '?::jsonb',
       })}
       from totals t, target tg
     ),
     answer as (
       select exists (select 1 from emp) as employee_exists, (select id from course) as school_course_id,
         (select transaction_id from target) as transaction_id, t.id as bank_id, t.balance_before, t.balance_after
       from (values (1)) as one left join totals t on true
     )`;

/** Parameters: employee id, signed change, then the steps' (`addToBank`). Exported for bench:hours-bank's statement figures. */
export const ADDITION = `with input as (select ?::int as employee_id, ?::int as delta),
     ${ADDITION_STEPS}
     select * from answer`;

// The same addition with its Idempotency-Key (`StatementKey` of @academy/service), in the same one
// round trip: the key's advisory lock is taken first, and `input` (so every write after it) is empty
// unless this request holds it and no answer is stored under the key; the key is inserted with the
// answer row, which a replay answers from. A first request that committed after this statement's
// snapshot makes the key's insert fail, and with it the whole statement (`StatementKey.record`).
export const KEYED_ADDITION = `with idempotency_lock as (select pg_try_advisory_xact_lock(hashtextextended(?::text, 0)) as locked),
     idempotency_stored as (
       select k.fingerprint, k.status, k.content_type, k.body from idempotency_keys k
       where (select locked from idempotency_lock) and k.scope = ? and k.key = ? and k.expires_at > ?::timestamptz
     ),
     idempotency_free as (select 1 from idempotency_lock where locked and not exists (select 1 from idempotency_stored)),
     input as (select ?::int as employee_id, ?::int as delta from idempotency_free),
     ${ADDITION_STEPS},
     idempotency_recorded as (
       insert into idempotency_keys (scope, key, fingerprint, status, content_type, body, created_at, expires_at)
       select ?, ?, ?, ?::int, null, row_to_json(a)::text, ?::timestamptz, ?::timestamptz from answer a, idempotency_free
     )
     select a.*, (select locked from idempotency_lock) as key_locked, (select row_to_json(s) from idempotency_stored s) as key_stored from answer a`;

interface AdditionRow {
  employee_exists: boolean;
  school_course_id: number | null;
  transaction_id: number | null;
  bank_id: number | null;
  balance_before: number | null;
  balance_after: number | null;
}

/**
 * An addition in one statement (rules 1–2: pending = max(0, −balance), completed = max(0,
 * balance)). Nothing is written when the employee or the course is missing. With `key`, the
 * request's Idempotency-Key is recorded in the same statement (a replay answers the first row).
 */
export async function addToBank(em: EntityManager, addition: Addition, key: StatementKey | null): Promise<AdditionResult> {
  const values = [
    addition.employeeId,
    addition.balanceChange,
    addition.schoolCourseId,
    addition.schoolCourseId,
    addition.transactionDate,
    addition.type,
    addition.totalMinutes,
    addition.reason,
    addition.createdBy,
    ...outboxRow(addition.event),
  ];
  const r = key
    ? await key.record(async () => {
        const [row] = await query<AdditionRow & KeyColumns>(em, KEYED_ADDITION, [
          key.lock,
          key.scope,
          key.key,
          key.at,
          ...values,
          key.scope,
          key.key,
          key.fingerprint,
          key.rowStatus,
          key.at,
          key.expiresAt,
        ]);
        return row!;
      })
    : (await query<AdditionRow>(em, ADDITION, values))[0]!;
  if (!r.employee_exists) return { outcome: 'employee_not_found' };
  if (r.school_course_id === null) return { outcome: 'school_course_not_found' };
  if (r.bank_id === null || r.transaction_id === null || r.balance_before === null || r.balance_after === null) throw new Error(`the addition to employee ${addition.employeeId}'s bank wrote nothing`);
  return {
    outcome: 'added',
    schoolCourseId: r.school_course_id,
    transactionId: r.transaction_id,
    bankId: r.bank_id,
    balances: { before: r.balance_before, afterFirst: r.balance_after, afterSecond: r.balance_after },
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

/**
 * The change, in one statement. Returns the balances it went through, or null when nothing was
 * written (the row to undo is no longer active). Pending = max(0, −balance), completed =
 * max(0, balance): the offsetting rules.
 */
export async function applyChange(em: EntityManager, change: Change): Promise<Balances | null> {
  const [first, second] = change.rows;
  const [row] = await query<{ balance_before: number; balance_after_first: number; balance_after: number }>(
    em,
    `with bank as (select id, completed_minutes - pending_minutes as balance_before from hours_banks where id = ?::int for update),
     original as (
       update hours_transactions set is_active = false
       where id = ?::int and is_active and type <> 'REVERSAL' and exists (select 1 from bank)
       returning id
     ),
     step as (
       select bank.id, bank.balance_before, bank.balance_before + ?::int as balance_after_first, bank.balance_before + ?::int + ?::int as balance_after from bank
       where ?::int is null or exists (select 1 from original)
     ),
     totals as (
       update hours_banks b set pending_minutes = greatest(0, -step.balance_after), completed_minutes = greatest(0, step.balance_after), updated_at = now()
       from step where b.id = step.id
       returning step.balance_before, step.balance_after_first, step.balance_after
     ),
     inserted as (
       insert into hours_transactions (id, hours_bank_id, school_course_id, transaction_date, type, total_minutes, pending_affected_minutes,
         completed_affected_minutes, reason, is_active, reverses_transaction_id, replaces_transaction_id, created_at, created_by)
       select v.id, ?::int, v.school_course_id, v.transaction_date, v.type, v.total_minutes,
         case v.step when 1 then greatest(0, -t.balance_after_first) - greatest(0, -t.balance_before) else greatest(0, -t.balance_after) - greatest(0, -t.balance_after_first) end,
         case v.step when 1 then greatest(0, t.balance_after_first) - greatest(0, t.balance_before) else greatest(0, t.balance_after) - greatest(0, t.balance_after_first) end,
         v.reason, v.is_active, v.reverses, v.replaces, clock_timestamp(), v.created_by
       from totals t cross join (values ${change.rows.map(() => ROW).join(', ')})
         as v(step, id, school_course_id, transaction_date, type, total_minutes, reason, is_active, reverses, replaces, created_by)
     ),
     events as (
       ${outboxInsertSql({ eventId: 'v.event_id', type: 'v.type', envelope: 'v.envelope', traceContext: 'v.trace_context' })}
       from totals cross join (values ${change.events.map(() => '(?::uuid, ?::text, ?::jsonb, ?::jsonb)').join(', ')}) as v(event_id, type, envelope, trace_context)
     )
     select balance_before, balance_after_first, balance_after from totals`,
    [
      change.bankId,
      change.undoTransactionId,
      first.balanceChange,
      first.balanceChange,
      second?.balanceChange ?? 0,
      change.undoTransactionId,
      change.bankId,
      ...change.rows.flatMap((r, i) => rowParams(i + 1, r)),
      ...change.events.flatMap((event) => outboxRow(event)),
    ],
  );
  return row ? { before: row.balance_before, afterFirst: row.balance_after_first, afterSecond: row.balance_after } : null;
}

/** A stored row of a bank's history. */
export type StoredRow = InstanceType<typeof HoursTransaction.class>;

/** Whether the employee exists (not deleted), and the school course asked for or the current one (null: none). In one round trip. */
export async function findEmployeeAndCourse(em: EntityManager, employeeId: number, schoolCourseId: number | undefined) {
  const [employee, courseId] = await Promise.all([em.findOne(EmployeeReplica, { id: employeeId, deleted: false }), chosenSchoolCourseId(em, schoolCourseId)]);
  return { employeeExists: employee !== null, schoolCourseId: courseId };
}

/** A bank's totals and every row of it, newest first; null when it has none yet. In one round trip. */
export async function findBankWithRows(em: EntityManager, employeeId: number, schoolCourseId: number): Promise<{ totals: Totals; rows: StoredRow[] } | null> {
  const [bank, rows] = await Promise.all([
    em.findOne(HoursBank, { employeeId, schoolCourseId }),
    em.find(HoursTransaction, { hoursBank: { employeeId, schoolCourseId } }, { orderBy: { createdAt: 'desc', id: 'desc' } }),
  ]);
  return bank ? { totals: { pendingMinutes: bank.pendingMinutes, completedMinutes: bank.completedMinutes }, rows } : null;
}
