import { z } from 'zod';
import { ASSIGNMENT_PATH, assignStudentsToEventRoute, contract, retiredRegistrationUpdateRoute, studentsAssignedToEventRoute, studentsBySubjectAndCenterRoute } from '@academy/contracts';
import { AppError } from '@academy/kit';
import { implement } from '../shared/academic-context.ts';
import { assignStudentsToEvent } from './assign-students-to-event.ts';
import { listStudentsAssignedToEvent } from './list-students-assigned-to-event.ts';
import { listStudentsBySubjectAndCenter } from './list-students-by-subject-and-center.ts';
import { eventIdRequired } from './registration.errors.ts';

/** The spec's `eventId is required` comes before the body's other fields. */
function eventIdFirst(body: unknown): void {
  const eventId = body !== null && typeof body === 'object' ? (body as { eventId?: unknown }).eventId : undefined;
  if (eventId === undefined || eventId === null) throw eventIdRequired();
}

/**
 * The event-assignment routes by name (`/api/v2/registration/*`, error bodies `{ status: 'error',
 * message }`), and the retired v1 update: gone whatever is sent, so it reads no token and no input
 * (bound as public, any query).
 */
export const registrationContract = contract({
  assign: assignStudentsToEventRoute,
  studentsBySubjectAndCenter: studentsBySubjectAndCenterRoute,
  studentsAssignedToEvent: studentsAssignedToEventRoute,
  retiredUpdate: { ...retiredRegistrationUpdateRoute, access: 'public' as const, request: { query: z.unknown() } },
});

/** A user (teacher) assigns and reads the students of the events they teach only; admins of any event. */
export const registrationRoutes = implement(registrationContract, {
  assign: {
    options: { checkBody: eventIdFirst },
    handle: async ({ body }, ctx, actor) => ({ status: 200, body: { status: 'success', data: await assignStudentsToEvent(ctx, body, actor) } }),
  },
  studentsBySubjectAndCenter: async ({ query }, ctx, actor) => ({ status: 200, body: { status: 'success', data: await listStudentsBySubjectAndCenter(ctx, query, actor) } }),
  studentsAssignedToEvent: async ({ query }, ctx, actor) => ({ status: 200, body: { status: 'success', data: await listStudentsAssignedToEvent(ctx, query, actor) } }),
  retiredUpdate: async () => {
    throw new AppError(410, 'GONE', `PUT /api/v1/registration/update is gone; use PUT ${ASSIGNMENT_PATH}`, {
      details: { replacement: { method: 'PUT', path: ASSIGNMENT_PATH } },
      headers: { Link: `<${ASSIGNMENT_PATH}>; rel="successor-version"` },
    });
  },
});
