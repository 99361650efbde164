import { defineEntity, p } from '@mikro-orm/postgresql';

// Foreign keys (events, students, statuses, employees), the checks and the history's index are
// declared by hand in the migration. The code reads and writes these tables in SQL
// (attendance.store.ts); the entities are here for the migrations.

/** The academy's attendance statuses: `weight` 0–1 counts toward the percentage; null is not counted (Excused). */
export const AttendanceStatus = defineEntity({
  name: 'AttendanceStatus',
  tableName: 'attendance_statuses',
  properties: {
    code: p.string().length(8).primary(),
    name: p.string().length(60),
    weight: p.decimal('number').precision(4).scale(3).nullable(),
    position: p.integer(),
    updatedAt: p.datetime().onCreate(() => new Date()),
  },
});

/** A class's attendance sheet: who took it first and when, who changed it last. */
export const AttendanceSheet = defineEntity({
  name: 'AttendanceSheet',
  tableName: 'attendance_sheets',
  properties: {
    eventId: p.integer().primary().autoincrement(false),
    takenByUserId: p.integer(),
    takenAt: p.datetime(),
    updatedByUserId: p.integer(),
    updatedAt: p.datetime(),
  },
});

/** One student's mark in a class. */
export const AttendanceMark = defineEntity({
  name: 'AttendanceMark',
  tableName: 'attendance_marks',
  properties: {
    eventId: p.integer().primary(),
    studentId: p.integer().primary().index(),
    status: p.string().length(8),
    minutesLate: p.integer().nullable(),
    remark: p.text().nullable(),
    markedByUserId: p.integer(),
    markedAt: p.datetime(),
  },
});

/** Every change of a mark: who, when, from → to (`from*` null for a first mark). */
export const AttendanceMarkChange = defineEntity({
  name: 'AttendanceMarkChange',
  tableName: 'attendance_mark_changes',
  indexes: [{ properties: ['eventId', 'studentId'] }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    eventId: p.integer(),
    studentId: p.integer(),
    fromStatus: p.string().length(8).nullable(),
    toStatus: p.string().length(8),
    fromMinutesLate: p.integer().nullable(),
    toMinutesLate: p.integer().nullable(),
    fromRemark: p.text().nullable(),
    toRemark: p.text().nullable(),
    changedByUserId: p.integer(),
    changedAt: p.datetime(),
  },
});

/** Where a student stands against the warning threshold in a subject: a warning goes out when `below` turns true. */
export const AttendanceStanding = defineEntity({
  name: 'AttendanceStanding',
  tableName: 'attendance_standings',
  properties: {
    studentId: p.integer().primary(),
    subjectId: p.integer().primary(),
    below: p.boolean(),
    percentage: p.decimal('number').precision(5).scale(2),
    changedAt: p.datetime(),
  },
});

/** One reminder of missing sheets per teacher and academy day, however many instances run the check. */
export const AttendanceReminder = defineEntity({
  name: 'AttendanceReminder',
  tableName: 'attendance_reminders',
  properties: {
    employeeId: p.integer().primary(),
    day: p.date().primary(),
    missingCount: p.integer(),
    sentAt: p.datetime(),
  },
});

export const attendanceEntities = [AttendanceStatus, AttendanceSheet, AttendanceMark, AttendanceMarkChange, AttendanceStanding, AttendanceReminder];
