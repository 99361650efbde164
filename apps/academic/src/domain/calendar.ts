// Admin CRUD of registrations and calendar events.
import type { EntityManager, InferEntity } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { CalendarEventCreateBody, CalendarEventListQuery, CalendarEventUpdateBody, RegistrationCreateBody, RegistrationListQuery, RegistrationUpdateBody } from '@academy/contracts';
import { BadRequestError } from '@academy/kit';
import { CalendarEvent, Registration } from '../data/registration.entities.ts';
import { findOr404, givenFilters, guardConstraints, intArray, mustExist, pageMeta } from './sql.ts';

type Input<T extends z.ZodType> = z.infer<T>;

const references = [
  ['studentId', 'students', 'STUDENT_NOT_FOUND', 'Student not found'],
  ['schoolCourseId', 'school_courses', 'SCHOOL_COURSE_NOT_FOUND', 'School course not found'],
  ['subjectId', 'subjects', 'SUBJECT_NOT_FOUND', 'Subject not found'],
  ['centerId', 'centers', 'CENTER_NOT_FOUND', 'Center not found'],
  ['employeeId', 'employees', 'EMPLOYEE_NOT_FOUND', 'Employee not found'],
] as const;

/** Each referenced id given in `input` must exist: a 404 naming it otherwise. */
const checkReferences = (em: EntityManager, input: Partial<Record<(typeof references)[number][0], number | null>>) =>
  mustExist(em, ...references.map(([field, table, code, message]) => [table, input[field], code, message] as const));

// ----------------------------------------------------------------------------- registrations

type RegistrationRow = InferEntity<typeof Registration>;
const registrationItem = (registration: RegistrationRow) => ({
  id: registration.id,
  studentId: registration.studentId,
  schoolCourseId: registration.schoolCourseId,
  subjectId: registration.subjectId,
  centerId: registration.centerId,
  employeeId: registration.employeeId ?? null,
  status: registration.status,
  createdAt: registration.createdAt.toISOString(),
});

const getRegistration = (em: EntityManager, id: number) => findOr404(em, Registration, id, 'REGISTRATION_NOT_FOUND', 'Registration not found');

export const registrations = {
  async list(em: EntityManager, query: Input<typeof RegistrationListQuery>) {
    const { page, limit, ...filters } = query;
    const [rows, total] = await em.findAndCount(Registration, givenFilters<RegistrationRow>(filters), { limit, offset: (page - 1) * limit, orderBy: { id: 'desc' } });
    return { data: rows.map(registrationItem), meta: pageMeta(total, page, limit) };
  },
  get: async (em: EntityManager, id: number) => registrationItem(await getRegistration(em, id)),
  async create(em: EntityManager, input: Input<typeof RegistrationCreateBody>) {
    await checkReferences(em, input);
    const registration = em.create(Registration, input);
    await guardConstraints(() => em.flush(), { unique: 'The student is already registered in this subject for this school course' });
    return registrationItem(registration);
  },
  async update(em: EntityManager, id: number, input: Input<typeof RegistrationUpdateBody>) {
    const registration = await getRegistration(em, id);
    await checkReferences(em, input);
    em.assign(registration, input);
    await guardConstraints(() => em.flush());
    return registrationItem(registration);
  },
  async remove(em: EntityManager, id: number) {
    const registration = await getRegistration(em, id);
    const item = registrationItem(registration);
    em.remove(registration);
    await em.flush();
    return item;
  },
};

// --------------------------------------------------------------------------- calendar events

type CalendarEventRow = InferEntity<typeof CalendarEvent>;
const eventItem = (event: CalendarEventRow, studentCount: number) => ({
  id: event.id,
  title: event.title ?? null,
  subjectId: event.subjectId,
  centerId: event.centerId,
  employeeId: event.employeeId ?? null,
  startsAt: event.startsAt.toISOString(),
  endsAt: event.endsAt.toISOString(),
  studentCount,
});

async function studentCounts(em: EntityManager, eventIds: number[]) {
  const rows = eventIds.length
    ? await em.execute<{ eventId: number; count: number }[]>(`select event_id as "eventId", count(*)::int as count from event_students where event_id = any(?::int[]) group by event_id`, [intArray(eventIds)])
    : [];
  const counts = new Map(rows.map((row) => [row.eventId, row.count]));
  return (eventId: number) => counts.get(eventId) ?? 0;
}

const getEvent = (em: EntityManager, id: number) => findOr404(em, CalendarEvent, id, 'EVENT_NOT_FOUND', 'Calendar event not found');

export const calendarEvents = {
  async list(em: EntityManager, query: Input<typeof CalendarEventListQuery>) {
    const { page, limit, ...filters } = query;
    const [rows, total] = await em.findAndCount(CalendarEvent, givenFilters<CalendarEventRow>(filters), { limit, offset: (page - 1) * limit, orderBy: [{ startsAt: 'desc' }, { id: 'desc' }] });
    const count = await studentCounts(em, rows.map((row) => row.id));
    return { data: rows.map((row) => eventItem(row, count(row.id))), meta: pageMeta(total, page, limit) };
  },
  async get(em: EntityManager, id: number) {
    const event = await getEvent(em, id);
    return eventItem(event, (await studentCounts(em, [id]))(id));
  },
  async create(em: EntityManager, input: Input<typeof CalendarEventCreateBody>) {
    await checkReferences(em, input);
    const event = em.create(CalendarEvent, { ...input, startsAt: new Date(input.startsAt), endsAt: new Date(input.endsAt) });
    await guardConstraints(() => em.flush());
    return eventItem(event, 0);
  },
  async update(em: EntityManager, id: number, input: Input<typeof CalendarEventUpdateBody>) {
    const event = await getEvent(em, id);
    await checkReferences(em, input);
    const { startsAt, endsAt, ...fields } = input;
    em.assign(event, { ...fields, ...(startsAt ? { startsAt: new Date(startsAt) } : {}), ...(endsAt ? { endsAt: new Date(endsAt) } : {}) });
    if (event.endsAt <= event.startsAt) throw new BadRequestError('INVALID_EVENT_TIMES', 'endsAt must be after startsAt');
    await guardConstraints(() => em.flush());
    return calendarEvents.get(em, id);
  },
  async remove(em: EntityManager, id: number) {
    const event = await getEvent(em, id);
    const item = eventItem(event, (await studentCounts(em, [id]))(id));
    em.remove(event);
    await em.flush();
    return item;
  },
};
