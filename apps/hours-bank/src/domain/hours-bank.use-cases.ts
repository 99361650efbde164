import type { EntityManager } from '@mikro-orm/postgresql';
import { createEnvelope, type EventData, type EventEnvelope } from '@academy/contracts';
import { ALLOCATED_BY_THE_STATEMENT, addToBank, applyChange, findTransaction, type NewRow, type StoredTransaction } from '../data/bank-store.ts';
import { employeeNotFound, schoolCourseNotFound, transactionNotFound } from './hours-bank.errors.ts';
import { applyOperation, signed, totalsOf, type OperationType, type Totals } from './offsetting.ts';
import { formatMinutes, minutesToDecimal } from './time-string.ts';

export const SOURCE = 'hours-bank';

export interface Actor {
  userId: number | null;
  correlationId: string;
}

export function totalsView(totals: Totals) {
  return {
    pendingHours: formatMinutes(totals.pendingMinutes),
    completedHours: formatMinutes(totals.completedMinutes),
    pendingDecimal: minutesToDecimal(totals.pendingMinutes),
    completedDecimal: minutesToDecimal(totals.completedMinutes),
  };
}

/** The UTC day of `now`, the service clock's instant (`ctx.clock`). */
const dayOf = (now: Date) => now.toISOString().slice(0, 10);
/** `2026-01-15` stays; a date-time becomes its UTC day; none is today's. */
const toDay = (date: string | undefined, now: Date) => (date === undefined ? dayOf(now) : date.length === 10 ? date : dayOf(new Date(date)));

type HoursEvent = 'hours-bank.transaction.recorded' | 'hours-bank.transaction.reverted';
/**
 * The envelope (built and validated by `createEnvelope`) is written to the outbox by the very
 * statement that makes the change it reports (see `applyChange`), so both commit together and the
 * bank lock is held for no extra round trip.
 */
function event<T extends HoursEvent>(type: T, data: EventData<T>, actor: Actor): EventEnvelope {
  return createEnvelope(type, data, { source: SOURCE, correlationId: actor.correlationId });
}

export interface AddHoursInput {
  employeeId: number;
  type: OperationType;
  minutes: number;
  reason?: string;
  date?: string;
  schoolCourseId?: number;
}

/**
 * Rules 1–2, applied under the bank's row lock in one statement (see `addToBank`), which also
 * creates the bank when this is its first operation: a refused addition leaves no empty bank.
 */
export async function addHours(em: EntityManager, input: AddHoursInput, actor: Actor, now: Date) {
  const transactionDate = toDay(input.date, now);
  const reason = input.reason ?? null;
  const result = await addToBank(em, {
    employeeId: input.employeeId,
    schoolCourseId: input.schoolCourseId ?? null,
    type: input.type,
    balanceChange: signed(input.type, input.minutes),
    totalMinutes: input.minutes,
    transactionDate,
    reason,
    createdBy: actor.userId,
    event: event(
      'hours-bank.transaction.recorded',
      {
        // The statement sets these three.
        transactionId: ALLOCATED_BY_THE_STATEMENT,
        hoursBankId: ALLOCATED_BY_THE_STATEMENT,
        schoolCourseId: input.schoolCourseId ?? ALLOCATED_BY_THE_STATEMENT,
        employeeId: input.employeeId,
        type: input.type,
        minutes: input.minutes,
        transactionDate,
        reason,
        replacesTransactionId: null,
        byUserId: actor.userId,
      },
      actor,
    ),
  });
  if (result.outcome === 'employee_not_found') throw employeeNotFound();
  if (result.outcome === 'school_course_not_found') throw schoolCourseNotFound();
  const movement = applyOperation(totalsOf(result.balances.before), input.type, input.minutes);
  return { employeeId: input.employeeId, schoolCourseId: result.schoolCourseId, transactionId: result.transactionId, movement, minutes: input.minutes };
}

/** The POST answer: what the operation took from the other side and added to its own (rules 1–2). */
export function addedDetails(result: Awaited<ReturnType<typeof addHours>>, type: OperationType) {
  const { pendingAffected, completedAffected } = result.movement;
  const subtracted = formatMinutes(Math.max(0, -(type === 'COMPLETED' ? pendingAffected : completedAffected)));
  const added = formatMinutes(Math.max(0, type === 'COMPLETED' ? completedAffected : pendingAffected));
  return {
    employeeId: result.employeeId,
    schoolCourseId: result.schoolCourseId,
    totals: totalsView(result.movement.after),
    details:
      type === 'COMPLETED'
        ? { hoursRegistered: formatMinutes(result.minutes), hoursSubtractedFromPending: subtracted, hoursAddedToCompleted: added }
        : { hoursRegistered: formatMinutes(result.minutes), hoursSubtractedFromCompleted: subtracted, hoursAddedToPending: added },
    transactionId: result.transactionId,
  };
}

type Undoable = StoredTransaction & { type: OperationType };

async function findUndoable(em: EntityManager, transactionId: number, idsNeeded: 1 | 2): Promise<Undoable> {
  const original = await findTransaction(em, transactionId, idsNeeded);
  if (!original || !original.isActive || original.type === 'REVERSAL') throw transactionNotFound();
  return original as Undoable;
}

function reversalRow(original: Undoable, id: number, cause: 'edited' | 'deleted', actor: Actor, now: Date): NewRow {
  return {
    id,
    balanceChange: -signed(original.type, original.totalMinutes),
    schoolCourseId: original.schoolCourseId,
    transactionDate: dayOf(now),
    type: 'REVERSAL',
    totalMinutes: original.totalMinutes,
    reason: `Reversal of transaction ${original.id} (${cause})`,
    isActive: false,
    reversesTransactionId: original.id,
    replacesTransactionId: null,
    createdBy: actor.userId,
  };
}

function revertedEvent(original: Undoable, reversalId: number, cause: 'edited' | 'deleted', actor: Actor) {
  return event(
    'hours-bank.transaction.reverted',
    {
      transactionId: original.id,
      reversalTransactionId: reversalId,
      hoursBankId: original.hoursBankId,
      employeeId: original.employeeId,
      schoolCourseId: original.schoolCourseId,
      type: original.type,
      minutes: original.totalMinutes,
      cause,
      byUserId: actor.userId,
    },
    actor,
  );
}

/** PUT: a REVERSAL row undoes the original, then a new row of the same type applies the new time. */
export async function editTransaction(em: EntityManager, input: { transactionId: number; minutes: number; reason?: string }, actor: Actor, now: Date) {
  const original = await findUndoable(em, input.transactionId, 2);
  const [reversalId, newId] = original.newIds as [number, number];
  const reason = input.reason ?? original.reason;
  const balances = await applyChange(em, {
    bankId: original.hoursBankId,
    undoTransactionId: original.id,
    rows: [
      reversalRow(original, reversalId, 'edited', actor, now),
      {
        id: newId,
        balanceChange: signed(original.type, input.minutes),
        schoolCourseId: original.schoolCourseId,
        transactionDate: original.transactionDate,
        type: original.type,
        totalMinutes: input.minutes,
        reason,
        isActive: true,
        reversesTransactionId: null,
        replacesTransactionId: original.id,
        createdBy: actor.userId,
      },
    ],
    events: [
      revertedEvent(original, reversalId, 'edited', actor),
      event(
        'hours-bank.transaction.recorded',
        {
          transactionId: newId,
          hoursBankId: original.hoursBankId,
          employeeId: original.employeeId,
          schoolCourseId: original.schoolCourseId,
          type: original.type,
          minutes: input.minutes,
          transactionDate: original.transactionDate,
          reason,
          replacesTransactionId: original.id,
          byUserId: actor.userId,
        },
        actor,
      ),
    ],
  });
  // Edited or deleted by a request that held the lock just before: nothing was written.
  if (!balances) throw transactionNotFound();
  return {
    employeeId: original.employeeId,
    schoolCourseId: original.schoolCourseId,
    totals: totalsView(totalsOf(balances.afterSecond)),
    details: { previousHours: formatMinutes(original.totalMinutes), newHours: formatMinutes(input.minutes), transactionType: original.type },
    oldTransactionId: original.id,
    newTransactionId: newId,
  };
}

/** DELETE (soft): the original becomes inactive and a REVERSAL row undoes its effect. */
export async function deleteTransaction(em: EntityManager, transactionId: number, actor: Actor, now: Date) {
  const original = await findUndoable(em, transactionId, 1);
  const [reversalId] = original.newIds as [number];
  const balances = await applyChange(em, {
    bankId: original.hoursBankId,
    undoTransactionId: original.id,
    rows: [reversalRow(original, reversalId, 'deleted', actor, now)],
    events: [revertedEvent(original, reversalId, 'deleted', actor)],
  });
  if (!balances) throw transactionNotFound();
  return {
    employeeId: original.employeeId,
    schoolCourseId: original.schoolCourseId,
    totals: totalsView(totalsOf(balances.afterFirst)),
    deletedTransaction: { id: original.id, type: original.type, totalHours: formatMinutes(original.totalMinutes) },
  };
}
