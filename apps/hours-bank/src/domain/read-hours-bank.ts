import type { EntityManager } from '@mikro-orm/postgresql';
import type { HoursTransactionItem } from '@academy/contracts';
import { HoursBank, HoursTransaction } from '../data/hours-bank.entity.ts';
import { EmployeeReplica, chosenSchoolCourseId } from '@academy/replicas';
import { employeeNotFound, hoursBankNotFound, schoolCourseNotFound } from './hours-bank.errors.ts';
import { formatMinutes, minutesToDecimal } from './time-string.ts';
import { totalsView } from './hours-bank.use-cases.ts';

type TransactionEntity = InstanceType<typeof HoursTransaction.class>;

const day = (value: string | Date) => (typeof value === 'string' ? value : value.toISOString().slice(0, 10));

export function transactionItem(row: TransactionEntity): HoursTransactionItem {
  return {
    id: row.id,
    type: row.type,
    date: day(row.transactionDate),
    hours: formatMinutes(row.totalMinutes),
    hoursDecimal: minutesToDecimal(row.totalMinutes),
    minutes: row.totalMinutes,
    pendingAffected: minutesToDecimal(row.pendingAffectedMinutes),
    completedAffected: minutesToDecimal(row.completedAffectedMinutes),
    reason: row.reason ?? null,
    isActive: row.isActive,
    reversesTransactionId: row.reversesTransactionId ?? null,
    replacesTransactionId: row.replacesTransactionId ?? null,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy ?? null,
  };
}

/** GET: totals, every row newest first, and the COMPLETED / PENDING rows apart. */
export async function readHoursBank(em: EntityManager, employeeId: number, schoolCourseId: number | undefined) {
  // Two round trips: the employee and the course (the one asked for, or the current one) at once,
  // then the bank and its rows at once.
  const [employee, courseId] = await Promise.all([em.findOne(EmployeeReplica, { id: employeeId, deleted: false }), chosenSchoolCourseId(em, schoolCourseId)]);
  if (!employee) throw employeeNotFound();
  if (courseId === null) throw schoolCourseNotFound();
  const [bank, rows] = await Promise.all([
    em.findOne(HoursBank, { employeeId, schoolCourseId: courseId }),
    em.find(HoursTransaction, { hoursBank: { employeeId, schoolCourseId: courseId } }, { orderBy: { createdAt: 'desc', id: 'desc' } }),
  ]);
  if (!bank) throw hoursBankNotFound();
  const transactions = rows.map(transactionItem);
  return {
    employeeId,
    schoolCourseId: courseId,
    totals: totalsView({ pendingMinutes: bank.pendingMinutes, completedMinutes: bank.completedMinutes }),
    tracking: {
      transactions,
      byType: {
        completed: transactions.filter((t) => t.type === 'COMPLETED'),
        pending: transactions.filter((t) => t.type === 'PENDING'),
      },
    },
  };
}
