import { AttendanceErrorCode as Code } from '@academy/contracts';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '@academy/kit';

export const eventNotFound = () => new NotFoundError(Code.EVENT_NOT_FOUND, 'Calendar event not found');
export const studentNotFound = () => new NotFoundError(Code.STUDENT_NOT_FOUND, 'Student not found');
export const notEventTeacher = (eventId: number) => new ForbiddenError(`Only the teacher of event ${eventId} or an admin may do this`, Code.NOT_EVENT_TEACHER);
export const notSubjectTeacher = () => new ForbiddenError("Only an admin or the student's teacher in the subject may read this", Code.NOT_SUBJECT_TEACHER);
export const notOwnEmployeeId = () => new ForbiddenError('A teacher may only read their own classes', 'NOT_OWN_EMPLOYEE_ID');
export const studentsNotOnRoster = (studentIds: number[]) =>
  new BadRequestError(Code.STUDENTS_NOT_ON_ROSTER, `Students not on the class's roster: ${studentIds.join(', ')}`, { studentIds });
export const unknownStatuses = (codes: string[]) =>
  new BadRequestError(Code.UNKNOWN_ATTENDANCE_STATUS, `Unknown attendance status: ${codes.join(', ')}`, { statuses: codes });
export const minutesLateOverClass = (studentIds: number[], classMinutes: number) =>
  new BadRequestError(Code.MINUTES_LATE_OVER_CLASS_LENGTH, `minutesLate is over the class's length (${classMinutes} minutes) for students ${studentIds.join(', ')}`, { studentIds, classMinutes });
export const classNotStarted = (opensAt: string) =>
  new BadRequestError(Code.CLASS_NOT_STARTED, `Attendance can be taken from 15 minutes before the class: from ${opensAt}`, { opensAt });
export const attendanceLocked = (lockedAt: string) =>
  new ForbiddenError(`The attendance of this class was locked for teachers at ${lockedAt}; an admin may still change it`, Code.ATTENDANCE_LOCKED);
export const invalidRange = (message: string) => new BadRequestError(Code.INVALID_RANGE, message);
export const statusInUse = (codes: string[]) =>
  new ConflictError(Code.ATTENDANCE_STATUS_IN_USE, `Statuses used by marks cannot be removed: ${codes.join(', ')}`, { statuses: codes });
