// Admin CRUD of calendar events (classes); DELETE deletes the event. Each change records its
// `calendar-event.*` event in the transaction of the change (the incidents timetable replica).
import type { EntityManager, InferEntity } from '@mikro-orm/postgresql';
import type { Actor } from '@academy/auth';
import type { CalendarEventCreateBody, CalendarEventListQuery, CalendarEventUpdateBody } from '@academy/contracts';
import { BadRequestError, pageMeta } from '@academy/kit';
import { recordEvent } from '@academy/messaging';
import { afterCommit } from '@academy/service';
import type { AcademicContext } from '../shared/academic-context.ts';
import { CalendarEvent } from '../shared/entities/registration.entities.ts';
import { SOURCE, calendarEventData } from '../shared/events.ts';
import { givenFilters } from '../shared/records.store.ts';
import type { ById, Input } from './directory.types.ts';
import { checkReferences } from './references.ts';
import { countEventStudents, findCalendarEvent, writeInTransaction } from './directory.store.ts';
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

async function readEvent(em: EntityManager, id: number) {
  const event = await findCalendarEvent(em, id);
  return eventItem(event, (await studentCounts(em, [id]))(id));
}

/** After a change has committed, the relay publishes its event now. */
const announced = (ctx: AcademicContext) => afterCommit(() => ctx.relay.nudge());

async function listCalendarEvents(ctx: AcademicContext, input: Input<typeof CalendarEventListQuery>, _actor: Actor) {
  const { page, limit, ...filters } = input;
  const [rows, total] = await ctx.orm.em.findAndCount(CalendarEvent, givenFilters<CalendarEventRow>(filters), { limit, offset: (page - 1) * limit, orderBy: [{ startsAt: 'desc' }, { id: 'desc' }] });
  const count = await studentCounts(ctx.orm.em, rows.map((row) => row.id));
  return { data: rows.map((row) => eventItem(row, count(row.id))), meta: pageMeta(total, page, limit) };
}

function readCalendarEvent(ctx: AcademicContext, { id }: ById, _actor: Actor) {
  return readEvent(ctx.orm.em, id);
}

async function createCalendarEvent(ctx: AcademicContext, input: Input<typeof CalendarEventCreateBody>, actor: Actor) {
  const em = ctx.orm.em;
  await checkReferences(em, input);
  if (input.employeeId != null) await assertCanTeach(em, input.employeeId);
  const item = await writeInTransaction(em, async (tx) => {
    const event = tx.create(CalendarEvent, { ...input, startsAt: new Date(input.startsAt), endsAt: new Date(input.endsAt) });
    await tx.flush();
    recordEvent(tx, 'calendar-event.created', calendarEventData(event), { source: SOURCE, correlationId: actor.correlationId });
    return eventItem(event, 0);
  });
  await announced(ctx);
  return item;
}

async function updateCalendarEvent(ctx: AcademicContext, { id, ...input }: Input<typeof CalendarEventUpdateBody> & ById, actor: Actor) {
  await writeInTransaction(ctx.orm.em, async (tx) => {
    const event = await findCalendarEvent(tx, id);
    await checkReferences(tx, input);
    if (input.employeeId != null && input.employeeId !== event.employeeId) await assertCanTeach(tx, input.employeeId);
    const before = JSON.stringify(calendarEventData(event));
    const { startsAt, endsAt, ...fields } = input;
    tx.assign(event, { ...fields, ...(startsAt ? { startsAt: new Date(startsAt) } : {}), ...(endsAt ? { endsAt: new Date(endsAt) } : {}) });
    if (event.endsAt <= event.startsAt) throw new BadRequestError('INVALID_EVENT_TIMES', 'endsAt must be after startsAt');
    // Only a change the timetable sees is announced (a new title is not).
    const after = calendarEventData(event);
    if (JSON.stringify(after) !== before) recordEvent(tx, 'calendar-event.updated', after, { source: SOURCE, correlationId: actor.correlationId });
  });
  await announced(ctx);
  return readEvent(ctx.orm.em, id);
}

async function deleteCalendarEvent(ctx: AcademicContext, { id }: ById, actor: Actor) {
  const item = await writeInTransaction(ctx.orm.em, async (tx) => {
    const event = await findCalendarEvent(tx, id);
    const item = eventItem(event, (await studentCounts(tx, [id]))(id));
    tx.remove(event);
    recordEvent(tx, 'calendar-event.deleted', { id }, { source: SOURCE, correlationId: actor.correlationId });
    return item;
  });
  await announced(ctx);
  return item;
}

/** Admin use cases of calendar events; DELETE deletes the event. */
export const calendarEvents = { list: listCalendarEvents, get: readCalendarEvent, create: createCalendarEvent, update: updateCalendarEvent, remove: deleteCalendarEvent };
