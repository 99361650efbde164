import type { Actor } from '@academy/auth';
import { recordEvent } from '@academy/messaging';
import type { AcademicContext } from '../shared/academic-context.ts';
import { SOURCE, schoolCourseCreatedData } from '../shared/events.ts';
import { insertSchoolCourse, withSchoolCoursesLocked } from './school-courses.store.ts';
import { schoolCourseItem } from './school-course-item.ts';

/** An admin creates a school course; `school-course.created` goes out with it. */
export async function createSchoolCourse(ctx: AcademicContext, input: { name: string; startDate: string; endDate: string }, actor: Actor) {
  const item = await withSchoolCoursesLocked(
    ctx.orm.em,
    async (tx) => {
      const { course, latestId } = await insertSchoolCourse(tx, input);
      recordEvent(tx, 'school-course.created', schoolCourseCreatedData(course), { source: SOURCE, correlationId: actor.correlationId });
      await tx.flush();
      return schoolCourseItem(course, latestId);
    },
    { unique: 'A school course with this name already exists' },
  );
  ctx.relay.nudge();
  return item;
}
