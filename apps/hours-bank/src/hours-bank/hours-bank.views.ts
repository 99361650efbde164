import type { HoursTransactionItem } from '@academy/contracts';
import type { Totals } from './offsetting.ts';
import type { StoredRow } from './hours-bank.store.ts';
import { formatMinutes, minutesToDecimal } from './time-string.ts';

/** Totals as the answers show them: time strings and decimal hours. */
export function totalsView(totals: Totals) {
  return {
    pendingHours: formatMinutes(totals.pendingMinutes),
    completedHours: formatMinutes(totals.completedMinutes),
    pendingDecimal: minutesToDecimal(totals.pendingMinutes),
    completedDecimal: minutesToDecimal(totals.completedMinutes),
  };
}

const day = (value: string | Date) => (typeof value === 'string' ? value : value.toISOString().slice(0, 10));

/** A row of the bank's history as the read answers it. */
export function transactionItem(row: StoredRow): HoursTransactionItem {
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
