import { defineEntity, p } from '@mikro-orm/postgresql';
import { CLOCK_SOURCES } from '@academy/contracts';

/**
 * One stretch of work: a clock-in and, once the employee clocks out, its clock-out. At most one
 * record per employee is open (a partial unique index, written by hand in the migration), so
 * concurrent or retried clock-ins can never open two.
 */
export const TimeRecord = defineEntity({
  name: 'TimeRecord',
  tableName: 'time_records',
  properties: {
    id: p.integer().primary().autoincrement(),
    employeeId: p.integer(),
    clockInAt: p.datetime(),
    clockOutAt: p.datetime().nullable(),
    clockInSource: p.enum(CLOCK_SOURCES),
    clockInDeviceId: p.string().length(128).nullable(),
    clockOutSource: p.enum(CLOCK_SOURCES).nullable(),
    clockOutDeviceId: p.string().length(128).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    /** Set when its employee's data was erased on request: kept 4 years for the law only, shown nowhere. */
    restrictedAt: p.datetime().nullable(),
  },
  indexes: [{ properties: ['employeeId', 'clockInAt'] }],
  checks: [{ name: 'time_records_order_check', expression: 'clock_out_at is null or clock_out_at >= clock_in_at' }],
});
