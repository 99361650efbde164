import type { Actor } from '@academy/auth';
import type { HoursBankContext } from '../shared/hours-bank-context.ts';
import { dayOf } from './days.ts';
import { transactionNotFound } from './hours-bank.errors.ts';
import { applyChange } from './hours-bank.store.ts';
import { totalsView } from './hours-bank.views.ts';
import { totalsOf } from './offsetting.ts';
import { findUndoable, reversalRow, revertedEvent } from './reversal.ts';
import { formatMinutes } from './time-string.ts';

/** DELETE (soft): the original becomes inactive and a REVERSAL row undoes its effect. */
export async function deleteTransaction(ctx: HoursBankContext, input: { transactionId: number }, actor: Actor) {
  const original = await findUndoable(ctx.orm.em, input.transactionId, 1);
  const [reversalId] = original.newIds as [number];
  const balances = await applyChange(ctx.orm.em, {
    bankId: original.hoursBankId,
    undoTransactionId: original.id,
    rows: [reversalRow(original, reversalId, 'deleted', actor, dayOf(ctx.clock.now()))],
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
