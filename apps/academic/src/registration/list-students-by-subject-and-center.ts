import type { Actor } from '@academy/auth';
import type { AcademicContext } from '../shared/academic-context.ts';
import { latestSchoolCourseId, selectRegisteredStudents } from './registration.store.ts';

/** Students registered in a subject at a center (the latest school course unless one is named), any status; open to teachers, who pick students from it. */
export async function listStudentsBySubjectAndCenter(ctx: AcademicContext, input: { subjectId: number; centerId: number; schoolCourseId?: number }, _actor: Actor) {
  const em = ctx.orm.em;
  const schoolCourseId = input.schoolCourseId ?? (await latestSchoolCourseId(em));
  const students = schoolCourseId === null ? [] : await selectRegisteredStudents(em, { subjectId: input.subjectId, centerId: input.centerId, schoolCourseId });
  return { schoolCourseId, students };
}
