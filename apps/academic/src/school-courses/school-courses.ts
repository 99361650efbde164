import type { EntityManager } from '@mikro-orm/postgresql';
import { ConflictError } from '@academy/kit';
import { recordEvent } from '@academy/messaging';
import { SchoolCourse } from '../shared/entities/registration.entities.ts';
import { SOURCE, schoolCourseCreatedData } from '../shared/events.ts';
import { latestSchoolCourseId } from '../shared/latest-school-course.ts';
import { findOr404, guardConstraints } from '../shared/sql.ts';

type SchoolCourseRow = { id: number; name: string; startDate: string; endDate: string; createdAt: Date };

const toItem = (course: SchoolCourseRow, latestId: number | null) => ({
  id: course.id,
  name: course.name,
  startDate: String(course.startDate),
  endDate: String(course.endDate),
  isLatest: course.id === latestId,
  createdAt: course.createdAt.toISOString(),
});

export async function listSchoolCourses(em: EntityManager) {
  const courses = await em.find(SchoolCourse, {}, { orderBy: [{ startDate: 'desc' }, { id: 'desc' }] });
  const latestId = courses[0]?.id ?? null;
  return { data: courses.map((course) => toItem(course, latestId)), latestSchoolCourseId: latestId };
}

export async function createSchoolCourse(em: EntityManager, input: { name: string; startDate: string; endDate: string }, correlationId: string) {
  return guardConstraints(
    () =>
      em.transactional(async (tx) => {
        // One writer of courses at a time, so `isLatest` in the answer is exact.
        await tx.execute(`select pg_advisory_xact_lock(hashtext('school_courses'))`);
        const course = tx.create(SchoolCourse, input);
        await tx.flush();
        const latestId = await latestSchoolCourseId(tx);
        recordEvent(tx, 'school-course.created', schoolCourseCreatedData(course), { source: SOURCE, correlationId });
        await tx.flush();
        return toItem(course, latestId);
      }),
    { unique: 'A school course with this name already exists' },
  );
}

export async function deleteSchoolCourse(em: EntityManager, id: number, correlationId: string) {
  return guardConstraints(
    () =>
      em.transactional(async (tx) => {
        await tx.execute(`select pg_advisory_xact_lock(hashtext('school_courses'))`);
        const course = await findOr404(tx, SchoolCourse, id, 'SCHOOL_COURSE_NOT_FOUND', 'School course not found');
        const [{ count }] = await tx.execute<{ count: number }[]>(`select count(*)::int as count from registrations where school_course_id = ?`, [id]);
        if (count > 0) {
          throw new ConflictError('SCHOOL_COURSE_HAS_REGISTRATIONS', `School course ${id} still has ${count} registration(s); cancel or delete them first`);
        }
        const item = toItem(course, null);
        tx.remove(course);
        await tx.flush();
        recordEvent(tx, 'school-course.deleted', { id }, { source: SOURCE, correlationId });
        await tx.flush();
        return item;
      }),
    // A registration inserted meanwhile makes the foreign key refuse the delete.
    { reference: 'School course still has registrations' },
  );
}
