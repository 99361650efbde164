import type { Express } from 'express';
import { SchoolCourseCreateBody } from '@academy/contracts';
import { requireAuth, requireRole } from '@academy/auth';
import { idParam, noQuery, requestId } from '@academy/kit';
import type { AcademicContext } from '../shared/academic-context.ts';
import { createSchoolCourse, deleteSchoolCourse, listSchoolCourses } from './school-courses.ts';

/** Any signed-in user reads the courses; admins create and delete them. */
export function registerSchoolCourseRoutes(app: Express, ctx: AcademicContext): void {
  const em = () => ctx.orm.em;
  const auth = requireAuth(ctx.verifier);

  app.get('/api/v2/school-courses', auth, noQuery, async (_req, res) => {
    res.json(await listSchoolCourses(em()));
  });
  app.post('/api/v2/school-courses', auth, requireRole('admin'), noQuery, async (req, res) => {
    const course = await createSchoolCourse(em(), SchoolCourseCreateBody.parse(req.body), requestId(req));
    ctx.relay.nudge();
    res.status(201).json(course);
  });
  app.delete('/api/v2/school-courses/:id', auth, requireRole('admin'), noQuery, async (req, res) => {
    const course = await deleteSchoolCourse(em(), idParam(req.params, 'id'), requestId(req));
    ctx.relay.nudge();
    res.json(course);
  });
}
