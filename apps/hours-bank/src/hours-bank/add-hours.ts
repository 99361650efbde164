import type { Actor } from '@academy/auth';
import type { StatementKey } from '@academy/service';
import type { HoursBankContext } from '../shared/hours-bank-context.ts';
import { toDay } from './days.ts';
import { hoursEvent } from './hours-bank.events.ts';
import { employeeNotFound, schoolCourseNotFound } from './hours-bank.errors.ts';
import { SET_BY_THE_STATEMENT, addToBank } from './hours-bank.store.ts';
import { applyOperation, signed, totalsOf, type OperationType } from './offsetting.ts';

export interface AddHoursInput {
  employeeId: number;
  minutes: number;
  reason?: string;
  date?: string;
  schoolCourseId?: number;
  /** The request's Idempotency-Key, recorded in the addition's own statement (`statementKeyOf(req)`); null without one. */
  key: StatementKey | null;
}

/**
 * What `add-completed-hours.ts` and `add-pending-hours.ts` share: rules 1–2, applied under the
 * bank's row lock in one statement (`addToBank`), which also creates the bank when this is its first
 * operation (a refused addition leaves no empty bank) and records the request's Idempotency-Key when
 * it has one. Returns the movement of the totals (a replay: as the first time).
 */
export async function addHours(ctx: HoursBankContext, input: AddHoursInput & { type: OperationType }, actor: Actor) {
  const { employeeId, type, minutes } = input;
  const transactionDate = toDay(input.date, ctx.clock.now());
  const reason = input.reason ?? null;
  const result = await addToBank(ctx.orm.em, {
    employeeId,
    schoolCourseId: input.schoolCourseId ?? null,
    type,
    balanceChange: signed(type, minutes),
    totalMinutes: minutes,
    transactionDate,
    reason,
    createdBy: actor.userId,
    event: hoursEvent(
      'hours-bank.transaction.recorded',
      {
        transactionId: SET_BY_THE_STATEMENT,
        hoursBankId: SET_BY_THE_STATEMENT,
        schoolCourseId: input.schoolCourseId ?? SET_BY_THE_STATEMENT,
        employeeId,
        type,
        minutes,
        transactionDate,
        reason,
        replacesTransactionId: null,
        byUserId: actor.userId,
      },
      actor,
    ),
  }, input.key);
  if (result.outcome === 'employee_not_found') throw employeeNotFound();
  if (result.outcome === 'school_course_not_found') throw schoolCourseNotFound();
  return { schoolCourseId: result.schoolCourseId, transactionId: result.transactionId, movement: applyOperation(totalsOf(result.balances.before), type, minutes) };
}
