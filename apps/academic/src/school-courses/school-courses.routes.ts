import { contract, createSchoolCourseRoute, deleteSchoolCourseRoute, listSchoolCoursesRoute } from '@academy/contracts';
import { implement } from '../shared/academic-context.ts';
import { createSchoolCourse } from './create-school-course.ts';
import { deleteSchoolCourse } from './delete-school-course.ts';
import { listSchoolCourses } from './list-school-courses.ts';

/** The school-course routes by name (`/api/v2/school-courses`). */
export const schoolCoursesContract = contract({ list: listSchoolCoursesRoute, create: createSchoolCourseRoute, delete: deleteSchoolCourseRoute });

/** Any signed-in user reads the courses; admins create and delete them. */
export const schoolCourseRoutes = implement(schoolCoursesContract, {
  list: async (_input, ctx, actor) => ({ status: 200, body: await listSchoolCourses(ctx, {}, actor) }),
  create: async ({ body }, ctx, actor) => ({ status: 201, body: await createSchoolCourse(ctx, body, actor) }),
  delete: async ({ params }, ctx, actor) => ({ status: 200, body: await deleteSchoolCourse(ctx, { id: params.id }, actor) }),
});
