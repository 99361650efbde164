// Admin CRUD of calendar events (classes); DELETE deletes the event. Each change records its
// `calendar-event.*` event in the transaction of the change (the incidents timetable replica).
import type { EntityManager, InferEntity } from '@mikro-orm/postgresql';
import type { CalendarEventCreateBody, CalendarEventListQuery, CalendarEventUpdateBody } from '@academy/contracts';
import { BadRequestError, pageMeta } from '@academy/kit';
import { recordEvent } from '@academy/messaging';
import { CalendarEvent } from '../shared/entities/registration.entities.ts';
import { SOURCE, calendarEventData } from '../shared/events.ts';
import { findOr404, givenFilters, guardConstraints } from '../shared/records.store.ts';
import type { Input, Meta } from './directory-page.ts';
import { checkReferences } from './references.ts';
import { countEventStudents } from './directory.store.ts';
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
  const counts = await countEventStudents(em, eventIds);
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
  async create(em: EntityManager, input: Input<typeof CalendarEventCreateBody>, meta: Meta) {
    await checkReferences(em, input);
    if (input.employeeId != null) await assertCanTeach(em, input.employeeId);
    return guardConstraints(() =>
      em.transactional(async (tx) => {
        const event = tx.create(CalendarEvent, { ...input, startsAt: new Date(input.startsAt), endsAt: new Date(input.endsAt) });
        await tx.flush();
        recordEvent(tx, 'calendar-event.created', calendarEventData(event), { source: SOURCE, ...meta });
        return eventItem(event, 0);
      }),
    );
  },
  async update(em: EntityManager, id: number, input: Input<typeof CalendarEventUpdateBody>, meta: Meta) {
    await guardConstraints(() =>
      em.transactional(async (tx) => {
        const event = await getEvent(tx, id);
        await checkReferences(tx, input);
        if (input.employeeId != null && input.employeeId !== event.employeeId) await assertCanTeach(tx, input.employeeId);
        const before = JSON.stringify(calendarEventData(event));
        const { startsAt, endsAt, ...fields } = input;
        tx.assign(event, { ...fields, ...(startsAt ? { startsAt: new Date(startsAt) } : {}), ...(endsAt ? { endsAt: new Date(endsAt) } : {}) });
        if (event.endsAt <= event.startsAt) throw new BadRequestError('INVALID_EVENT_TIMES', 'endsAt must be after startsAt');
        // Only a change the timetable sees is announced (a new title is not).
        const after = calendarEventData(event);
        if (JSON.stringify(after) !== before) recordEvent(tx, 'calendar-event.updated', after, { source: SOURCE, ...meta });
      }),
    );
    return calendarEvents.get(em, id);
  },
  async remove(em: EntityManager, id: number, meta: Meta) {
    return em.transactional(async (tx) => {
      const event = await getEvent(tx, id);
      const item = eventItem(event, (await studentCounts(tx, [id]))(id));
      tx.remove(event);
      recordEvent(tx, 'calendar-event.deleted', { id }, { source: SOURCE, ...meta });
      return item;
    });
  },
};
