import type { Actor } from '@academy/auth';
import { ConflictError } from '@academy/kit';
import { recordEvent } from '@academy/messaging';
import type { AcademicContext } from '../shared/academic-context.ts';
import { SOURCE } from '../shared/events.ts';
import { countRegistrations, findSchoolCourse, withSchoolCoursesLocked } from './school-courses.store.ts';
import { schoolCourseItem } from './school-course-item.ts';

/** An admin deletes a school course that no registration uses (409 otherwise); `school-course.deleted` goes out with it. */
export async function deleteSchoolCourse(ctx: AcademicContext, input: { id: number }, actor: Actor) {
  const { id } = input;
  const item = await withSchoolCoursesLocked(
    ctx.orm.em,
    async (tx) => {
      const course = await findSchoolCourse(tx, id);
      const count = await countRegistrations(tx, id);
      if (count > 0) {
        throw new ConflictError('SCHOOL_COURSE_HAS_REGISTRATIONS', `School course ${id} still has ${count} registration(s); cancel or delete them first`);
      }
      const deleted = schoolCourseItem(course, null);
      tx.remove(course);
      await tx.flush();
      recordEvent(tx, 'school-course.deleted', { id }, { source: SOURCE, correlationId: actor.correlationId });
      await tx.flush();
      return deleted;
    },
    // A registration inserted meanwhile makes the foreign key refuse the delete.
    { reference: 'School course still has registrations' },
  );
  ctx.relay.nudge();
  return item;
}
