import type { EntityManager } from '@mikro-orm/postgresql';
import { checkExists } from './directory.store.ts';

const references = [
  ['studentId', 'students', 'STUDENT_NOT_FOUND', 'Student not found'],
  ['schoolCourseId', 'school_courses', 'SCHOOL_COURSE_NOT_FOUND', 'School course not found'],
  ['subjectId', 'subjects', 'SUBJECT_NOT_FOUND', 'Subject not found'],
  ['centerId', 'centers', 'CENTER_NOT_FOUND', 'Center not found'],
  ['employeeId', 'employees', 'EMPLOYEE_NOT_FOUND', 'Employee not found'],
] as const;

/** Each referenced id given in `input` must exist: a 404 naming it otherwise. */
export const checkReferences = (em: EntityManager, input: Partial<Record<(typeof references)[number][0], number | null>>) =>
  checkExists(em, ...references.map(([field, table, code, message]) => [table, input[field], code, message] as const));
