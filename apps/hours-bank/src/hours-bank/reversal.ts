import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '@academy/auth';
import { hoursEvent } from './hours-bank.events.ts';
import { transactionNotFound } from './hours-bank.errors.ts';
import { findTransaction, type NewRow, type StoredTransaction } from './hours-bank.store.ts';
import { signed, type OperationType } from './offsetting.ts';

// What an edit and a delete share: the transaction they undo, its REVERSAL row and event.

export type Undoable = StoredTransaction & { type: OperationType };
export type UndoCause = 'edited' | 'deleted';

/** The transaction to undo, with `idsNeeded` new row ids allocated; 404 when it is missing, inactive or a REVERSAL. */
export async function findUndoable(em: EntityManager, transactionId: number, idsNeeded: 1 | 2): Promise<Undoable> {
  const original = await findTransaction(em, transactionId, idsNeeded);
  if (!original || !original.isActive || original.type === 'REVERSAL') throw transactionNotFound();
  return original as Undoable;
}

export function reversalRow(original: Undoable, id: number, cause: UndoCause, actor: Actor, day: string): NewRow {
  return {
    id,
    balanceChange: -signed(original.type, original.totalMinutes),
    schoolCourseId: original.schoolCourseId,
    transactionDate: day,
    type: 'REVERSAL',
    totalMinutes: original.totalMinutes,
    reason: `Reversal of transaction ${original.id} (${cause})`,
    isActive: false,
    reversesTransactionId: original.id,
    replacesTransactionId: null,
    createdBy: actor.userId,
  };
}

export function revertedEvent(original: Undoable, reversalId: number, cause: UndoCause, actor: Actor) {
  return hoursEvent(
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
