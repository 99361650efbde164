import type { Express, NextFunction, Request, Response } from 'express';
import { ASSIGNMENT_PATH, assignStudentsToEventRoute, retiredRegistrationUpdateRoute, studentsAssignedToEventRoute, studentsBySubjectAndCenterRoute } from '@academy/contracts';
import { currentUser } from '@academy/auth';
import { AppError, BadRequestError, errorStyle } from '@academy/kit';
import { expressPath, routeBinder } from '@academy/service';
import type { AcademicContext } from '../shared/academic-context.ts';
import { assignStudentsToEvent } from './assign-students-to-event.ts';
import { studentsAssignedToEvent, studentsBySubjectAndCenter } from './registration-queries.ts';

/** The spec's `eventId is required` comes before the body's other fields. */
function eventIdFirst(body: unknown): void {
  const eventId = body !== null && typeof body === 'object' ? (body as { eventId?: unknown }).eventId : undefined;
  if (eventId === undefined || eventId === null) throw new BadRequestError('EVENT_ID_REQUIRED', 'eventId is required');
}

/** Event assignment (spec): error bodies are `{ status: 'error', message }`; roles admin or user. */
export function registerRegistrationRoutes(app: Express, ctx: AcademicContext): void {
  const bind = routeBinder(app, ctx);
  const em = () => ctx.orm.em;

  // Unknown paths below the family answer in its style too.
  app.use('/api/v2/registration', errorStyle('status'));
  // A body that is not JSON fails in the body parser, before the routes set their style: give it theirs.
  app.use(['/api/v2/registration', '/api/v1/registration'], (error: unknown, _req: Request, res: Response, next: NextFunction) => {
    res.locals.errorStyle = 'status';
    next(error);
  });

  // A user (teacher) assigns and reads the students of the events they teach only; admins of any event.
  bind(assignStudentsToEventRoute, { checkBody: eventIdFirst }, async ({ body, res }) => {
    res.json({ status: 'success', data: await assignStudentsToEvent(em(), body, currentUser(res)) });
  });
  bind(studentsBySubjectAndCenterRoute, async ({ query, res }) => {
    res.json({ status: 'success', data: await studentsBySubjectAndCenter(em(), query) });
  });
  bind(studentsAssignedToEventRoute, async ({ query, res }) => {
    res.json({ status: 'success', data: await studentsAssignedToEvent(em(), query.eventId, currentUser(res)) });
  });

  // The v1 update is retired: clients are pointed at its v2 replacement, whatever they send (so not bound: no token or input is read).
  app.put(expressPath(retiredRegistrationUpdateRoute.path), errorStyle('status'), () => {
    throw new AppError(410, 'GONE', `PUT /api/v1/registration/update is gone; use PUT ${ASSIGNMENT_PATH}`, {
      details: { replacement: { method: 'PUT', path: ASSIGNMENT_PATH } },
      headers: { Link: `<${ASSIGNMENT_PATH}>; rel="successor-version"` },
    });
  });
}
