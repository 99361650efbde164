import { defineEntity, p } from '@mikro-orm/postgresql';

// Foreign keys are plain integer columns here; their constraints are declared in the migration.

export const EMPLOYEE_KINDS = ['teacher', 'staff'] as const;
export const STUDENT_STATUSES = ['active', 'inactive', 'withdrawn'] as const;
export type StudentStatus = (typeof STUDENT_STATUSES)[number];

/** A teacher or member of staff, optionally linked to a login. */
export const Employee = defineEntity({
  name: 'Employee',
  tableName: 'employees',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer().nullable().unique(),
    name: p.string().length(100),
    lastname: p.string().length(100),
    email: p.string().length(254).nullable(),
    /** Spanish DNI or NIE, normalized (`normalizeTaxId`); shown to admins only, never logged. */
    taxId: p.string().length(9).nullable().unique(),
    /** The payroll software's code for the employee, when it prints one on payslips. */
    payrollCode: p.string().length(32).nullable().unique(),
    kind: p.enum(EMPLOYEE_KINDS).default('teacher'),
    active: p.boolean().default(true),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

/** The tutor of one or more students; notified by e-mail on their behalf. */
export const Guardian = defineEntity({
  name: 'Guardian',
  tableName: 'guardians',
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.string().length(100),
    lastname: p.string().length(100).default(''),
    email: p.string().length(254),
    phone: p.string().length(40).nullable(),
    active: p.boolean().default(true),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

/** `email` may be null or a reserved placeholder (`placeholderEmail` of @academy/contracts). */
export const Student = defineEntity({
  name: 'Student',
  tableName: 'students',
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.string().length(100),
    lastname: p.string().length(100),
    email: p.string().length(254).nullable(),
    status: p.enum(STUDENT_STATUSES).default('active'),
    guardianId: p.integer().nullable().index(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export const Subject = defineEntity({
  name: 'Subject',
  tableName: 'subjects',
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.string().length(120).unique(),
    active: p.boolean().default(true),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

/** A content block of a subject; `position` orders the blocks of a subject from 1. */
export const Block = defineEntity({
  name: 'Block',
  tableName: 'blocks',
  uniques: [{ properties: ['subjectId', 'position'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    subjectId: p.integer(),
    name: p.string().length(120),
    position: p.integer(),
  },
});

export const Center = defineEntity({
  name: 'Center',
  tableName: 'centers',
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.string().length(120).unique(),
    address: p.string().length(255).nullable(),
    active: p.boolean().default(true),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
