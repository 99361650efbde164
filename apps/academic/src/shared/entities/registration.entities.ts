import { defineEntity, p } from '@mikro-orm/postgresql';

export const REGISTRATION_STATUSES = ['pending', 'active', 'cancelled'] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];

/** An academic year. The latest (current) one is the greatest `startDate`, ties broken by the greatest id. */
export const SchoolCourse = defineEntity({
  name: 'SchoolCourse',
  tableName: 'school_courses',
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.string().length(60).unique(),
    startDate: p.date(),
    endDate: p.date(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

/** A student's registration (matrícula) in a subject at a center for a school course. */
export const Registration = defineEntity({
  name: 'Registration',
  tableName: 'registrations',
  uniques: [{ properties: ['studentId', 'schoolCourseId', 'subjectId'] }],
  indexes: [{ properties: ['schoolCourseId', 'studentId'] }, { properties: ['subjectId', 'centerId', 'schoolCourseId'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    studentId: p.integer(),
    schoolCourseId: p.integer(),
    subjectId: p.integer(),
    centerId: p.integer(),
    employeeId: p.integer().nullable().index(),
    status: p.enum(REGISTRATION_STATUSES).default('pending'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

/** A class in the calendar. */
export const CalendarEvent = defineEntity({
  name: 'CalendarEvent',
  tableName: 'calendar_events',
  indexes: [{ properties: ['subjectId', 'centerId'] }, { properties: ['startsAt'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    title: p.string().length(200).nullable(),
    subjectId: p.integer(),
    centerId: p.integer(),
    employeeId: p.integer().nullable().index(),
    startsAt: p.datetime(),
    endsAt: p.datetime(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

/** Students assigned to a calendar event. */
export const EventStudent = defineEntity({
  name: 'EventStudent',
  tableName: 'event_students',
  properties: {
    eventId: p.integer().primary(),
    studentId: p.integer().primary().index(),
    assignedAt: p.datetime().onCreate(() => new Date()),
  },
});

/** Which employee teaches which subject; kept in step with registrations by event assignment. */
export const EmployeeSubject = defineEntity({
  name: 'EmployeeSubject',
  tableName: 'employee_subjects',
  properties: {
    employeeId: p.integer().primary(),
    subjectId: p.integer().primary().index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
