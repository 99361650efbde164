/**
 * The bank's arithmetic, in whole minutes. Pending and completed are the two sides of one signed
 * balance (completed − pending), so the spec's offsetting rules 1–2 are "add to the balance":
 * adding completed T first pays off pending, adding pending T first uses up completed. Undoing an
 * operation applies its opposite through the same rules, so the totals always equal a replay of
 * the active operations, and pending and completed are never both above zero.
 */
export interface Totals {
  pendingMinutes: number;
  completedMinutes: number;
}

export type OperationType = 'COMPLETED' | 'PENDING';

export interface Movement {
  before: Totals;
  after: Totals;
  /** Change of each total (after − before), stored on the transaction row. */
  pendingAffected: number;
  completedAffected: number;
}

export const ZERO: Totals = { pendingMinutes: 0, completedMinutes: 0 };

/** The signed balance of a bank: completed − pending. */
export const balanceOf = (totals: Totals) => totals.completedMinutes - totals.pendingMinutes;
export const totalsOf = (balance: number): Totals => ({ pendingMinutes: Math.max(0, -balance), completedMinutes: Math.max(0, balance) });

function move(before: Totals, signedMinutes: number): Movement {
  const after = totalsOf(balanceOf(before) + signedMinutes);
  return {
    before,
    after,
    pendingAffected: after.pendingMinutes - before.pendingMinutes,
    completedAffected: after.completedMinutes - before.completedMinutes,
  };
}

/** What an operation adds to the balance. */
export const signed = (type: OperationType, minutes: number) => (type === 'COMPLETED' ? minutes : -minutes);

/** Rules 1–2: adds `minutes` of `type`, offsetting the other side first. */
export function applyOperation(totals: Totals, type: OperationType, minutes: number): Movement {
  return move(totals, signed(type, minutes));
}

/** Undoes an operation of `type` and `minutes` (the effect of a REVERSAL row). */
export function revertOperation(totals: Totals, type: OperationType, minutes: number): Movement {
  return move(totals, -signed(type, minutes));
}

/** The totals a bank reaches from zero through these operations, in order. */
export function replay(operations: readonly { type: OperationType; minutes: number }[]): Totals {
  return operations.reduce<Totals>((totals, op) => applyOperation(totals, op.type, op.minutes).after, ZERO);
}
