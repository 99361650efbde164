import { Router, type Express, type NextFunction, type Request, type Response } from 'express';
import { AssignStudentsBody, StudentsAssignedToEventQuery, StudentsBySubjectAndCenterQuery } from '@academy/contracts';
import { currentUser, requireAuth, requireRole } from '@academy/auth';
import { AppError, BadRequestError, errorStyle, noQuery } from '@academy/kit';
import type { AcademicContext } from '../shared/academic-context.ts';
import { assignStudentsToEvent } from './assign-students-to-event.ts';
import { studentsAssignedToEvent, studentsBySubjectAndCenter } from './registration-queries.ts';

const ASSIGNMENT_PATH = '/api/v2/registration/assign-students-to-event';

/** Event assignment (spec): error bodies are `{ status: 'error', message }`; roles admin or user. */
export function registerRegistrationRoutes(app: Express, ctx: AcademicContext): void {
  const em = () => ctx.orm.em;
  const router = Router();
  router.use(requireAuth(ctx.verifier, { message: 'Invalid or expired token' }), requireRole(['admin', 'user']));

  // A user (teacher) assigns and reads the students of the events they teach only; admins of any event.
  router.put('/assign-students-to-event', noQuery, async (req, res) => {
    const body = req.body as Record<string, unknown> | undefined;
    if (body === undefined || body === null || typeof body !== 'object' || body.eventId === undefined || body.eventId === null) {
      throw new BadRequestError('EVENT_ID_REQUIRED', 'eventId is required');
    }
    const data = await assignStudentsToEvent(em(), AssignStudentsBody.parse(body), currentUser(res));
    res.json({ status: 'success', data });
  });
  router.get('/students-by-subject-and-center', async (req, res) => {
    const data = await studentsBySubjectAndCenter(em(), StudentsBySubjectAndCenterQuery.parse(req.query));
    res.json({ status: 'success', data });
  });
  router.get('/students-assigned-to-event', async (req, res) => {
    const { eventId } = StudentsAssignedToEventQuery.parse(req.query);
    res.json({ status: 'success', data: await studentsAssignedToEvent(em(), eventId, currentUser(res)) });
  });

  app.use('/api/v2/registration', errorStyle('status'), router);
  // A body that is not JSON fails in the body parser, before the routes set their style: give it theirs.
  app.use(['/api/v2/registration', '/api/v1/registration'], (error: unknown, _req: Request, res: Response, next: NextFunction) => {
    res.locals.errorStyle = 'status';
    next(error);
  });
  // The v1 update is retired: clients are pointed at its v2 replacement.
  app.put('/api/v1/registration/update', errorStyle('status'), () => {
    throw new AppError(410, 'GONE', `PUT /api/v1/registration/update is gone; use PUT ${ASSIGNMENT_PATH}`, {
      details: { replacement: { method: 'PUT', path: ASSIGNMENT_PATH } },
      headers: { Link: `<${ASSIGNMENT_PATH}>; rel="successor-version"` },
    });
  });
}
