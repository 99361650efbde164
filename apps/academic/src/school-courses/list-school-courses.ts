import type { Actor } from '@academy/auth';
import type { AcademicContext } from '../shared/academic-context.ts';
import { schoolCourseItem } from './school-course-item.ts';
import { allSchoolCourses } from './school-courses.store.ts';

/** Every school course, the latest (current) first and flagged. */
export async function listSchoolCourses(ctx: AcademicContext, _input: Record<string, never>, _actor: Actor) {
  const courses = await allSchoolCourses(ctx.orm.em);
  const latestId = courses[0]?.id ?? null;
  return { data: courses.map((course) => schoolCourseItem(course, latestId)), latestSchoolCourseId: latestId };
}
