import type { Actor } from '@academy/auth';
import type { AcademicContext } from '../shared/academic-context.ts';
import { SchoolCourse } from '../shared/entities/registration.entities.ts';
import { schoolCourseItem } from './school-course-item.ts';

/** Every school course, the latest (current) first and flagged. */
export async function listSchoolCourses(ctx: AcademicContext, _input: Record<string, never>, _actor: Actor) {
  const courses = await ctx.orm.em.find(SchoolCourse, {}, { orderBy: [{ startDate: 'desc' }, { id: 'desc' }] });
  const latestId = courses[0]?.id ?? null;
  return { data: courses.map((course) => schoolCourseItem(course, latestId)), latestSchoolCourseId: latestId };
}
