import { BadRequestError, ForbiddenError, NotFoundError } from '@academy/kit';

export const eventIdRequired = () => new BadRequestError('EVENT_ID_REQUIRED', 'eventId is required');
export const eventNotFound = () => new NotFoundError('EVENT_NOT_FOUND', 'Calendar event not found');
export const employeeNotFound = () => new NotFoundError('EMPLOYEE_NOT_FOUND', 'Employee not found');
export const notEventTeacher = (eventId: number) => new ForbiddenError(`Only the teacher of event ${eventId} or an admin may do this`, 'NOT_EVENT_TEACHER');
export const notOwnEmployeeId = () => new ForbiddenError('A teacher may only assign themselves as employeeId', 'NOT_OWN_EMPLOYEE_ID');
export const subjectMismatch = (subjectId: number, eventId: number) => new BadRequestError('SUBJECT_MISMATCH', `subjectId ${subjectId} is not the subject of event ${eventId}`);
export const centerMismatch = (centerId: number, eventId: number) => new BadRequestError('CENTER_MISMATCH', `centerId ${centerId} is not the center of event ${eventId}`);
export const employeeIdRequired = () => new BadRequestError('EMPLOYEE_ID_REQUIRED', 'employeeId is required: the event has no employee');
