import type { Express } from 'express';
import { createSchoolCourseRoute, deleteSchoolCourseRoute, listSchoolCoursesRoute } from '@academy/contracts';
import { requestId } from '@academy/kit';
import { routeBinder } from '@academy/service';
import type { AcademicContext } from '../shared/academic-context.ts';
import { createSchoolCourse, deleteSchoolCourse, listSchoolCourses } from './school-courses.ts';

/** Any signed-in user reads the courses; admins create and delete them. */
export function registerSchoolCourseRoutes(app: Express, ctx: AcademicContext): void {
  const bind = routeBinder(app, ctx);
  const em = () => ctx.orm.em;

  bind(listSchoolCoursesRoute, async ({ res }) => {
    res.json(await listSchoolCourses(em()));
  });
  bind(createSchoolCourseRoute, async ({ body, req, res }) => {
    const course = await createSchoolCourse(em(), body, requestId(req));
    ctx.relay.nudge();
    res.status(201).json(course);
  });
  bind(deleteSchoolCourseRoute, async ({ params, req, res }) => {
    const course = await deleteSchoolCourse(em(), params.id, requestId(req));
    ctx.relay.nudge();
    res.json(course);
  });
}
