import { defineEntity, p } from '@mikro-orm/postgresql';

export const TRANSACTION_TYPES = ['COMPLETED', 'PENDING', 'REVERSAL'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** One bank per employee and school course; totals in whole minutes, changed only under its row lock. */
export const HoursBank = defineEntity({
  name: 'HoursBank',
  tableName: 'hours_banks',
  properties: {
    id: p.integer().primary().autoincrement(),
    employeeId: p.integer(),
    schoolCourseId: p.integer(),
    pendingMinutes: p.integer().default(0),
    completedMinutes: p.integer().default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['employeeId', 'schoolCourseId'] }],
  // The offsetting rules keep the totals on one side: never negative, never both above zero.
  checks: [{ name: 'hours_banks_one_side_check', expression: 'pending_minutes >= 0 and completed_minutes >= 0 and (pending_minutes = 0 or completed_minutes = 0)' }],
});

/**
 * A row of a bank's history. COMPLETED and PENDING rows are operations (active until edited or
 * deleted); a REVERSAL row records one undo, linked to the row it undoes, and is never active.
 * Every row stores the change it made to the totals, so the totals are the sum of all rows.
 */
export const HoursTransaction = defineEntity({
  name: 'HoursTransaction',
  tableName: 'hours_transactions',
  properties: {
    id: p.integer().primary().autoincrement(),
    hoursBank: () => p.manyToOne(HoursBank),
    schoolCourseId: p.integer(),
    transactionDate: p.date(),
    type: p.enum(TRANSACTION_TYPES),
    totalMinutes: p.integer(),
    pendingAffectedMinutes: p.integer(),
    completedAffectedMinutes: p.integer(),
    reason: p.text().nullable(),
    isActive: p.boolean(),
    /** On a REVERSAL: the row it undoes. */
    reversesTransactionId: p.integer().nullable(),
    /** On the row created by an edit: the row it replaces. */
    replacesTransactionId: p.integer().nullable(),
    createdAt: p.datetime(),
    /** User id (token `sub`) of who made it. */
    createdBy: p.integer().nullable(),
  },
  indexes: [{ properties: ['hoursBank', 'createdAt'] }],
});
