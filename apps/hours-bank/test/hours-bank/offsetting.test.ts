import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { applyOperation, replay, revertOperation, ZERO, type OperationType, type Totals } from '../../src/hours-bank/offsetting.ts';

describe('offsetting rules', () => {
  test('rule 1: adding completed first subtracts from pending (pending 1h + 2h completed → 0h / 1h)', () => {
    const movement = applyOperation({ pendingMinutes: 60, completedMinutes: 0 }, 'COMPLETED', 120);
    expect(movement.after).toEqual({ pendingMinutes: 0, completedMinutes: 60 });
    expect([movement.pendingAffected, movement.completedAffected]).toEqual([-60, 60]);
  });

  test('rule 2: adding pending first subtracts from completed', () => {
    const movement = applyOperation({ pendingMinutes: 0, completedMinutes: 30 }, 'PENDING', 45);
    expect(movement.after).toEqual({ pendingMinutes: 15, completedMinutes: 0 });
    expect([movement.pendingAffected, movement.completedAffected]).toEqual([15, -30]);
  });

  test('an addition smaller than the other side only reduces it', () => {
    expect(applyOperation({ pendingMinutes: 180, completedMinutes: 0 }, 'COMPLETED', 45).after).toEqual({ pendingMinutes: 135, completedMinutes: 0 });
  });

  test('undoing a completed operation that had offset pending brings the pending back', () => {
    // pending 1h, completed 2h (→ completed 1h), then the 2h are deleted: pending 1h again.
    const after = applyOperation({ pendingMinutes: 60, completedMinutes: 0 }, 'COMPLETED', 120).after;
    expect(revertOperation(after, 'COMPLETED', 120).after).toEqual({ pendingMinutes: 60, completedMinutes: 0 });
  });
});

type Op = { kind: 'add'; type: OperationType; minutes: number } | { kind: 'edit'; pick: number; minutes: number } | { kind: 'delete'; pick: number };
interface Row {
  type: OperationType | 'REVERSAL';
  operationType: OperationType;
  minutes: number;
  active: boolean;
  pendingAffected: number;
  completedAffected: number;
}

const minutes = fc.integer({ min: 1, max: 999 * 60 + 59 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), type: fc.constantFrom<OperationType>('COMPLETED', 'PENDING'), minutes }),
  fc.record({ kind: fc.constant('edit' as const), pick: fc.nat(), minutes }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
);

/** The bank as the service runs it: each operation moves the totals and writes rows with their effect. */
function run(ops: Op[]) {
  let totals: Totals = ZERO;
  const rows: Row[] = [];
  const push = (type: Row['type'], operationType: OperationType, mins: number, active: boolean, movement: ReturnType<typeof applyOperation>) => {
    rows.push({ type, operationType, minutes: mins, active, pendingAffected: movement.pendingAffected, completedAffected: movement.completedAffected });
    totals = movement.after;
  };
  const history: Totals[] = [];
  for (const operation of ops) {
    if (operation.kind === 'add') {
      push(operation.type, operation.type, operation.minutes, true, applyOperation(totals, operation.type, operation.minutes));
    } else {
      const active = rows.filter((row) => row.active);
      if (active.length === 0) continue;
      const target = active[operation.pick % active.length]!;
      target.active = false;
      push('REVERSAL', target.operationType, target.minutes, false, revertOperation(totals, target.operationType, target.minutes));
      if (operation.kind === 'edit') {
        push(target.operationType, target.operationType, operation.minutes, true, applyOperation(totals, target.operationType, operation.minutes));
      }
    }
    history.push(totals);
  }
  return { totals, rows, history };
}

describe('offsetting, for any sequence of adds, edits and deletes', () => {
  test('the totals equal a replay of the active rows, in any order', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), fc.integer(), (ops, seed) => {
        const { totals, rows } = run(ops);
        const active = rows.filter((row) => row.active && row.type !== 'REVERSAL').map((row) => ({ type: row.operationType, minutes: row.minutes }));
        expect(replay(active)).toEqual(totals);
        const shuffled = [...active].sort((a, b) => ((a.minutes * 31 + seed) % 97) - ((b.minutes * 31 + seed) % 97));
        expect(replay(shuffled)).toEqual(totals);
      }),
    );
  });

  test('the totals equal the sum of the effects of every row, reversals included', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const { totals, rows } = run(ops);
        const pending = rows.reduce((sum, row) => sum + row.pendingAffected, 0);
        const completed = rows.reduce((sum, row) => sum + row.completedAffected, 0);
        expect({ pendingMinutes: pending, completedMinutes: completed }).toEqual(totals);
      }),
    );
  });

  test('completed and pending are never both above zero, nor negative', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        for (const totals of run(ops).history) {
          expect(totals.pendingMinutes > 0 && totals.completedMinutes > 0).toBe(false);
          expect(totals.pendingMinutes).toBeGreaterThanOrEqual(0);
          expect(totals.completedMinutes).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });
});
