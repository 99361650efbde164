import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '@academy/messaging';
import { findTransactionForWrite, lockBank, resolveBankForWrite, writeOperation, writeUndo, type BankTarget, type NewTransactionRow } from '../data/bank-store.ts';
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

async function resolveTarget(em: EntityManager, employeeId: number, schoolCourseId: number | null): Promise<BankTarget & { bankId: number; schoolCourseId: number }> {
  // A second try covers a bank created by a concurrent request after the first statement's snapshot.
  for (let attempt = 0; attempt < 2; attempt++) {
    const target = await resolveBankForWrite(em, employeeId, schoolCourseId);
    if (!target.employeeExists) throw employeeNotFound();
    if (target.schoolCourseId === null) throw schoolCourseNotFound();
    if (target.bankId !== null) return { ...target, bankId: target.bankId, schoolCourseId: target.schoolCourseId };
  }
  throw new Error(`hours bank of employee ${employeeId} could not be resolved`);
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
    const target = await resolveTarget(tx, input.employeeId, input.schoolCourseId ?? null);
    const transactionDate = toDay(input.date);
    const reason = input.reason ?? null;
    recordEvent(
      tx,
      'hours-bank.transaction.recorded',
      {
        transactionId: target.transactionId,
        hoursBankId: target.bankId,
        employeeId: input.employeeId,
        schoolCourseId: target.schoolCourseId,
        type: input.type,
        minutes: input.minutes,
        transactionDate,
        reason,
        replacesTransactionId: null,
        byUserId: actor.userId,
      },
      { source: SOURCE, correlationId: actor.correlationId },
    );
    // The outbox row goes in before the lock, so the lock is held for two statements only.
    await tx.flush();
    const before = await lockBank(tx, target.bankId);
    const movement = applyOperation(before, input.type, input.minutes);
    await writeOperation(tx, target.bankId, movement.after, [
      {
        id: target.transactionId,
        schoolCourseId: target.schoolCourseId,
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
    ]);
    return { employeeId: input.employeeId, schoolCourseId: target.schoolCourseId, transactionId: target.transactionId, movement, minutes: input.minutes };
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

type Undoable = Awaited<ReturnType<typeof findTransactionForWrite>> & { type: OperationType };

async function findUndoable(em: EntityManager, transactionId: number, idsNeeded: 1 | 2): Promise<Undoable> {
  const original = await findTransactionForWrite(em, transactionId, idsNeeded);
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

function recordReverted(em: EntityManager, original: Undoable, reversalId: number, cause: 'edited' | 'deleted', actor: Actor) {
  recordEvent(
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
    { source: SOURCE, correlationId: actor.correlationId },
  );
}

/** PUT: a REVERSAL row undoes the original, then a new row of the same type applies the new time. */
export async function editTransaction(em: EntityManager, input: { transactionId: number; minutes: number; reason?: string }, actor: Actor) {
  return em.fork().transactional(async (tx) => {
    const original = await findUndoable(tx, input.transactionId, 2);
    const [reversalId, newId] = original.newIds as [number, number];
    const reason = input.reason ?? original.reason;
    recordReverted(tx, original, reversalId, 'edited', actor);
    recordEvent(
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
      { source: SOURCE, correlationId: actor.correlationId },
    );
    await tx.flush();
    const before = await lockBank(tx, original.hoursBankId);
    const reverted = revertOperation(before, original.type, original.totalMinutes);
    const applied = applyOperation(reverted.after, original.type, input.minutes);
    const undone = await writeUndo(tx, original.hoursBankId, original.id, applied.after, [
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
    ]);
    // Edited or deleted by a concurrent request since it was read: nothing was written; roll back.
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
    const original = await findUndoable(tx, transactionId, 1);
    const [reversalId] = original.newIds as [number];
    recordReverted(tx, original, reversalId, 'deleted', actor);
    await tx.flush();
    const before = await lockBank(tx, original.hoursBankId);
    const reverted = revertOperation(before, original.type, original.totalMinutes);
    const undone = await writeUndo(tx, original.hoursBankId, original.id, reverted.after, [reversalRow(original, reversalId, reverted, 'deleted', actor)]);
    if (!undone) throw transactionNotFound();
    return {
      employeeId: original.employeeId,
      schoolCourseId: original.schoolCourseId,
      totals: totalsView(reverted.after),
      deletedTransaction: { id: original.id, type: original.type, totalHours: formatMinutes(original.totalMinutes) },
    };
  });
}
