import type { Actor } from '@academy/auth';
import type { AcademicContext } from '../shared/academic-context.ts';
import { assertTeachesEvent } from './event-teacher.ts';
import { eventNotFound } from './registration.errors.ts';
import { findEvent, selectEventStudents } from './registration.store.ts';

/** Students assigned to an event, with the status of their registration in its subject and center (latest course): admins, or the event's teacher. */
export async function listStudentsAssignedToEvent(ctx: AcademicContext, input: { eventId: number }, actor: Actor) {
  const em = ctx.orm.em;
  const event = await findEvent(em, input.eventId);
  if (!event) throw eventNotFound();
  assertTeachesEvent(actor, event);
  const rows = await selectEventStudents(em, input.eventId);
  return { eventId: input.eventId, employeeId: event.employeeId, students: rows.map((row) => ({ ...row, assignedAt: new Date(row.assignedAt).toISOString() })) };
}
