import { defineEntity, p } from '@mikro-orm/postgresql';
import { LOCALES } from '@academy/contracts';

export const USER_ROLES = ['admin', 'user'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** A login. Teachers and staff are `user` with an employee; students may have one too. */
export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.integer().primary().autoincrement(),
    email: p.string().length(254).unique(),
    passwordHash: p.string().length(255).hidden(),
    role: p.enum(USER_ROLES),
    employeeId: p.integer().nullable().index(),
    studentId: p.integer().nullable().index(),
    active: p.boolean().default(true),
    /** The language they read notifications in; null: the academy's (`ACADEMY_LOCALE` of notifications). */
    locale: p.enum(LOCALES).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
