import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventData, EventEnvelope } from '@academy/contracts';
import { recordEvent } from '@academy/messaging';
import { lockBankOfEmployee, lockBankOfTransaction, writeOperation, writeUndo, type LockedTransaction, type NewTransactionRow } from '../data/bank-store.ts';
import { employeeNotFound, schoolCourseNotFound, transactionNotFound } from './hours-bank.errors.ts';
import { applyOperation, revertOperation, type OperationType, type Totals } from './offsetting.ts';
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

const today = () => new Date().toISOString().slice(0, 10);
/** `2026-01-15` stays; a date-time becomes its UTC day. */
const toDay = (date: string | undefined) => (date === undefined ? today() : date.length === 10 ? date : new Date(date).toISOString().slice(0, 10));

type HoursEvent = 'hours-bank.transaction.recorded' | 'hours-bank.transaction.reverted';
/**
 * `recordEvent` builds and validates the envelope (on a scratch fork); the outbox row is then
 * written by the same statement as the change it reports (see bank-store), in the same
 * transaction, so the bank lock is not held for an extra round trip.
 */
function event<T extends HoursEvent>(em: EntityManager, type: T, data: EventData<T>, actor: Actor): EventEnvelope {
  return recordEvent(em.fork(), type, data, { source: SOURCE, correlationId: actor.correlationId });
}

export interface AddHoursInput {
  employeeId: number;
  type: OperationType;
  minutes: number;
  reason?: string;
  date?: string;
  schoolCourseId?: number;
}

/** Rules 1–2: one transaction, the bank row locked first. */
export async function addHours(em: EntityManager, input: AddHoursInput, actor: Actor) {
  return em.fork().transactional(async (tx) => {
    const bank = await lockBankOfEmployee(tx, input.employeeId, input.schoolCourseId ?? null);
    if ('missing' in bank) throw bank.missing === 'employee' ? employeeNotFound() : schoolCourseNotFound();
    const transactionDate = toDay(input.date);
    const reason = input.reason ?? null;
    const movement = applyOperation(bank.totals, input.type, input.minutes);
    await writeOperation(tx, {
      bankId: bank.bankId,
      totals: movement.after,
      rows: [
        {
          id: bank.transactionId,
          schoolCourseId: bank.schoolCourseId,
          transactionDate,
          type: input.type,
          totalMinutes: input.minutes,
          pendingAffected: movement.pendingAffected,
          completedAffected: movement.completedAffected,
          reason,
          isActive: true,
          reversesTransactionId: null,
          replacesTransactionId: null,
          createdBy: actor.userId,
        },
      ],
      events: [
        event(
          tx,
          'hours-bank.transaction.recorded',
          {
            transactionId: bank.transactionId,
            hoursBankId: bank.bankId,
            employeeId: input.employeeId,
            schoolCourseId: bank.schoolCourseId,
            type: input.type,
            minutes: input.minutes,
            transactionDate,
            reason,
            replacesTransactionId: null,
            byUserId: actor.userId,
          },
          actor,
        ),
      ],
    });
    return { employeeId: input.employeeId, schoolCourseId: bank.schoolCourseId, transactionId: bank.transactionId, movement, minutes: input.minutes };
  });
}

export function completedDetails(result: Awaited<ReturnType<typeof addHours>>) {
  return {
    employeeId: result.employeeId,
    schoolCourseId: result.schoolCourseId,
    totals: totalsView(result.movement.after),
    details: {
      hoursRegistered: formatMinutes(result.minutes),
      hoursSubtractedFromPending: formatMinutes(Math.max(0, -result.movement.pendingAffected)),
      hoursAddedToCompleted: formatMinutes(Math.max(0, result.movement.completedAffected)),
    },
    transactionId: result.transactionId,
  };
}

export function pendingDetails(result: Awaited<ReturnType<typeof addHours>>) {
  return {
    employeeId: result.employeeId,
    schoolCourseId: result.schoolCourseId,
    totals: totalsView(result.movement.after),
    details: {
      hoursRegistered: formatMinutes(result.minutes),
      hoursSubtractedFromCompleted: formatMinutes(Math.max(0, -result.movement.completedAffected)),
      hoursAddedToPending: formatMinutes(Math.max(0, result.movement.pendingAffected)),
    },
    transactionId: result.transactionId,
  };
}

type Undoable = LockedTransaction & { type: OperationType };

async function lockUndoable(em: EntityManager, transactionId: number, idsNeeded: 1 | 2): Promise<Undoable> {
  const original = await lockBankOfTransaction(em, transactionId, idsNeeded);
  if (!original || !original.isActive || original.type === 'REVERSAL') throw transactionNotFound();
  return original as Undoable;
}

function reversalRow(original: Undoable, id: number, movement: ReturnType<typeof revertOperation>, cause: 'edited' | 'deleted', actor: Actor): NewTransactionRow {
  return {
    id,
    schoolCourseId: original.schoolCourseId,
    transactionDate: today(),
    type: 'REVERSAL',
    totalMinutes: original.totalMinutes,
    pendingAffected: movement.pendingAffected,
    completedAffected: movement.completedAffected,
    reason: `Reversal of transaction ${original.id} (${cause})`,
    isActive: false,
    reversesTransactionId: original.id,
    replacesTransactionId: null,
    createdBy: actor.userId,
  };
}

function revertedEvent(em: EntityManager, original: Undoable, reversalId: number, cause: 'edited' | 'deleted', actor: Actor) {
  return event(
    em,
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
export async function editTransaction(em: EntityManager, input: { transactionId: number; minutes: number; reason?: string }, actor: Actor) {
  return em.fork().transactional(async (tx) => {
    const original = await lockUndoable(tx, input.transactionId, 2);
    const [reversalId, newId] = original.newIds as [number, number];
    const reason = input.reason ?? original.reason;
    const reverted = revertOperation(original.totals, original.type, original.totalMinutes);
    const applied = applyOperation(reverted.after, original.type, input.minutes);
    const undone = await writeUndo(tx, original.id, {
      bankId: original.hoursBankId,
      totals: applied.after,
      rows: [
        reversalRow(original, reversalId, reverted, 'edited', actor),
        {
          id: newId,
          schoolCourseId: original.schoolCourseId,
          transactionDate: original.transactionDate,
          type: original.type,
          totalMinutes: input.minutes,
          pendingAffected: applied.pendingAffected,
          completedAffected: applied.completedAffected,
          reason,
          isActive: true,
          reversesTransactionId: null,
          replacesTransactionId: original.id,
          createdBy: actor.userId,
        },
      ],
      events: [
        revertedEvent(tx, original, reversalId, 'edited', actor),
        event(
          tx,
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
    if (!undone) throw transactionNotFound();
    return {
      employeeId: original.employeeId,
      schoolCourseId: original.schoolCourseId,
      totals: totalsView(applied.after),
      details: { previousHours: formatMinutes(original.totalMinutes), newHours: formatMinutes(input.minutes), transactionType: original.type },
      oldTransactionId: original.id,
      newTransactionId: newId,
    };
  });
}

/** DELETE (soft): the original becomes inactive and a REVERSAL row undoes its effect. */
export async function deleteTransaction(em: EntityManager, transactionId: number, actor: Actor) {
  return em.fork().transactional(async (tx) => {
    const original = await lockUndoable(tx, transactionId, 1);
    const [reversalId] = original.newIds as [number];
    const reverted = revertOperation(original.totals, original.type, original.totalMinutes);
    const undone = await writeUndo(tx, original.id, {
      bankId: original.hoursBankId,
      totals: reverted.after,
      rows: [reversalRow(original, reversalId, reverted, 'deleted', actor)],
      events: [revertedEvent(tx, original, reversalId, 'deleted', actor)],
    });
    if (!undone) throw transactionNotFound();
    return {
      employeeId: original.employeeId,
      schoolCourseId: original.schoolCourseId,
      totals: totalsView(reverted.after),
      deletedTransaction: { id: original.id, type: original.type, totalHours: formatMinutes(original.totalMinutes) },
    };
  });
}
