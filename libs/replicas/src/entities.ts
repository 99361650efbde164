import { defineEntity, p } from '@mikro-orm/postgresql';

/**
 * Local copy of academic's employees, fed by `employee.*` events. A deleted employee stays as a
 * tombstone (`deleted`), and `sourceVersion` (the event's `occurredAt`) keeps an older event that
 * arrives late from undoing a newer one.
 */
export const EmployeeReplica = defineEntity({
  name: 'EmployeeReplica',
  tableName: 'employees',
  properties: {
    id: p.integer().primary().autoincrement(false),
    userId: p.integer().nullable(),
    name: p.string().length(255).nullable(),
    email: p.string().length(254).nullable(),
    /** `taxIdDigest` of the DNI or NIE (`employee.upserted` version 3): the tax id itself is never kept here. */
    taxIdDigest: p.string().length(64).nullable(),
    payrollCode: p.string().length(32).nullable(),
    active: p.boolean().default(true),
    deleted: p.boolean().default(false),
    sourceVersion: p.datetime(),
  },
});

/** Local copy of academic's school courses, fed by `school-course.*` events (same tombstone rule). */
export const SchoolCourseReplica = defineEntity({
  name: 'SchoolCourseReplica',
  tableName: 'school_courses',
  properties: {
    id: p.integer().primary().autoincrement(false),
    name: p.string().length(255).nullable(),
    startDate: p.date().nullable(),
    endDate: p.date().nullable(),
    deleted: p.boolean().default(false),
    sourceVersion: p.datetime(),
  },
  indexes: [{ properties: ['startDate', 'id'] }],
});

/** The replica tables, for a service's `entities` (its migrations then create them). */
export const replicaEntities = [EmployeeReplica, SchoolCourseReplica];
