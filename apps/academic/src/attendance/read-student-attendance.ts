import type { Actor } from '@academy/auth';
import type { StudentAttendanceQuery } from '@academy/contracts';
import type { z } from 'zod';
import type { AcademicContext } from '../shared/academic-context.ts';
import { dayOf, dayRange } from './academy-days.ts';
import { notSubjectTeacher, studentNotFound } from './attendance.errors.ts';
import { selectStudentSummary, studentExists, subjectsTeachingStudent } from './attendance.store.ts';

export type StudentAttendanceInput = z.infer<typeof StudentAttendanceQuery> & { studentId: number };

/** A student's attendance per subject over the range (a year to today by default): admins any; a teacher only in the subjects they teach the student. */
export async function readStudentAttendance(ctx: AcademicContext, input: StudentAttendanceInput, actor: Actor) {
  const em = ctx.orm.em;
  const timeZone = ctx.config.ACADEMY_TIME_ZONE;
  const { studentId, subjectId } = input;
  const range = dayRange(input, dayOf(ctx.clock.now(), timeZone), 365);
  let subjectIds: number[] | undefined;
  if (actor.role !== 'admin') {
    subjectIds = await subjectsTeachingStudent(em, studentId, actor.employeeId, subjectId);
    if (subjectIds.length === 0) {
      if (!(await studentExists(em, studentId))) throw studentNotFound();
      throw notSubjectTeacher();
    }
  }
  const rows = await selectStudentSummary(em, { studentId, subjectId, subjectIds }, range, timeZone);
  // Only a student with no marks in the range costs a second query, to tell them from one who does not exist.
  if (rows.length === 0 && !(await studentExists(em, studentId))) throw studentNotFound();
  return { studentId, from: range.from, to: range.to, subjects: rows.map(({ studentId: _student, studentName: _name, ...subject }) => subject) };
}
