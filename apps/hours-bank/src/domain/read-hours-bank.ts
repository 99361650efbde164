import type { EntityManager } from '@mikro-orm/postgresql';
import type { HoursTransactionItem } from '@academy/contracts';
import { HoursBank, HoursTransaction } from '../data/hours-bank.entity.ts';
import { EmployeeReplica, SchoolCourseReplica } from '../data/replicas.entity.ts';
import { employeeNotFound, hoursBankNotFound, schoolCourseNotFound } from './hours-bank.errors.ts';
import { formatMinutes, minutesToDecimal } from './time-string.ts';
import { totalsView } from './hours-bank.use-cases.ts';

/** The current school course is the latest by start date (ties: the highest id). */
function findSchoolCourse(em: EntityManager, schoolCourseId: number | undefined) {
  return schoolCourseId === undefined
    ? em.findOne(SchoolCourseReplica, { deleted: false }, { orderBy: { startDate: 'desc nulls last', id: 'desc' } })
    : em.findOne(SchoolCourseReplica, { id: schoolCourseId, deleted: false });
}

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
  // Two round trips: the employee and the course at once, then the bank and its rows at once.
  const [employee, course] = await Promise.all([
    em.findOne(EmployeeReplica, { id: employeeId, deleted: false }),
    findSchoolCourse(em, schoolCourseId),
  ]);
  if (!employee) throw employeeNotFound();
  if (!course) throw schoolCourseNotFound();
  const [bank, rows] = await Promise.all([
    em.findOne(HoursBank, { employeeId, schoolCourseId: course.id }),
    em.find(HoursTransaction, { hoursBank: { employeeId, schoolCourseId: course.id } }, { orderBy: { createdAt: 'desc', id: 'desc' } }),
  ]);
  if (!bank) throw hoursBankNotFound();
  const transactions = rows.map(transactionItem);
  return {
    employeeId,
    schoolCourseId: course.id,
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
