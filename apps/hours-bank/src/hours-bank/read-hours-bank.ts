import type { Actor } from '@academy/auth';
import type { HoursBankContext } from '../shared/hours-bank-context.ts';
import { employeeNotFound, hoursBankNotFound, schoolCourseNotFound } from './hours-bank.errors.ts';
import { findBankWithRows, findEmployeeAndCourse } from './hours-bank.store.ts';
import { totalsView, transactionItem } from './hours-bank.views.ts';

export interface ReadHoursBankInput {
  employeeId: number;
  /** The current (latest) school course when left out. */
  schoolCourseId?: number;
}

/** GET: totals, every row newest first, and the COMPLETED / PENDING rows apart. The route's guard lets a user read only their own bank. */
export async function readHoursBank(ctx: HoursBankContext, input: ReadHoursBankInput, _actor: Actor) {
  const { employeeId } = input;
  const { employeeExists, schoolCourseId } = await findEmployeeAndCourse(ctx.orm.em, employeeId, input.schoolCourseId);
  if (!employeeExists) throw employeeNotFound();
  if (schoolCourseId === null) throw schoolCourseNotFound();
  const found = await findBankWithRows(ctx.orm.em, employeeId, schoolCourseId);
  if (!found) throw hoursBankNotFound();
  const transactions = found.rows.map(transactionItem);
  return {
    employeeId,
    schoolCourseId,
    totals: totalsView(found.totals),
    tracking: {
      transactions,
      byType: {
        completed: transactions.filter((t) => t.type === 'COMPLETED'),
        pending: transactions.filter((t) => t.type === 'PENDING'),
      },
    },
  };
}
