import type { Actor } from '@academy/auth';
import type { HoursBankContext } from '../shared/hours-bank-context.ts';
import { dayOf } from './days.ts';
import { hoursEvent } from './hours-bank.events.ts';
import { transactionNotFound } from './hours-bank.errors.ts';
import { applyChange } from './hours-bank.store.ts';
import { totalsView } from './hours-bank.views.ts';
import { signed, totalsOf } from './offsetting.ts';
import { findUndoable, reversalRow, revertedEvent } from './reversal.ts';
import { formatMinutes } from './time-string.ts';

export interface EditTransactionInput {
  transactionId: number;
  minutes: number;
  /** The original's reason is kept when left out. */
  reason?: string;
}

/** PUT: a REVERSAL row undoes the original, then a new row of the same type applies the new time. */
export async function editTransaction(ctx: HoursBankContext, input: EditTransactionInput, actor: Actor) {
  const original = await findUndoable(ctx.orm.em, input.transactionId, 2);
  const [reversalId, newId] = original.newIds as [number, number];
  const reason = input.reason ?? original.reason;
  const balances = await applyChange(ctx.orm.em, {
    bankId: original.hoursBankId,
    undoTransactionId: original.id,
    rows: [
      reversalRow(original, reversalId, 'edited', actor, dayOf(ctx.clock.now())),
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
      hoursEvent(
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
