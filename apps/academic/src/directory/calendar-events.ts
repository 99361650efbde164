// Admin CRUD of calendar events (classes); DELETE deletes the event.
import type { EntityManager, InferEntity } from '@mikro-orm/postgresql';
import type { CalendarEventCreateBody, CalendarEventListQuery, CalendarEventUpdateBody } from '@academy/contracts';
import { BadRequestError } from '@academy/kit';
import { CalendarEvent } from '../shared/entities/registration.entities.ts';
import { findOr404, givenFilters, guardConstraints, intArray, pageMeta } from '../shared/sql.ts';
import type { Input } from './directory-page.ts';
import { checkReferences } from './references.ts';
import { assertCanTeach } from '../shared/teachers.ts';

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
    if (input.employeeId != null) await assertCanTeach(em, input.employeeId);
    const event = em.create(CalendarEvent, { ...input, startsAt: new Date(input.startsAt), endsAt: new Date(input.endsAt) });
    await guardConstraints(() => em.flush());
    return eventItem(event, 0);
  },
  async update(em: EntityManager, id: number, input: Input<typeof CalendarEventUpdateBody>) {
    const event = await getEvent(em, id);
    await checkReferences(em, input);
    if (input.employeeId != null && input.employeeId !== event.employeeId) await assertCanTeach(em, input.employeeId);
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
