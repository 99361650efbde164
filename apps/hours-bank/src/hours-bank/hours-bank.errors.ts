import { BadRequestError, NotFoundError } from '@academy/kit';

// Messages and codes of the spec's error table (hours bank section).
export const timeRequired = () => new BadRequestError('TIME_REQUIRED', 'Time is required');
export const invalidTimeFormat = () =>
  new BadRequestError('INVALID_TIME_FORMAT', 'Time must be "<H>h", "<M>m" or "<H>h <M>m" with whole numbers, e.g. "1h 30m"');
export const invalidMinutes = () => new BadRequestError('INVALID_MINUTES', 'Minutes must be below 60');
export const invalidHours = (maxHours: number) =>
  new BadRequestError('INVALID_HOURS', `Hours must be above 0 and below ${maxHours}h`);
export const employeeIdRequired = (details?: unknown) => new BadRequestError('EMPLOYEE_ID_REQUIRED', 'Employee ID is required', details);
export const transactionIdRequired = (details?: unknown) =>
  new BadRequestError('TRANSACTION_ID_REQUIRED', 'Transaction ID is required', details);
export const employeeNotFound = () => new NotFoundError('EMPLOYEE_NOT_FOUND', 'Employee not found');
export const schoolCourseNotFound = () => new NotFoundError('SCHOOL_COURSE_NOT_FOUND', 'No school course found');
export const transactionNotFound = () => new NotFoundError('TRANSACTION_NOT_FOUND', 'Transaction not found');
/** The spec's "the service not found": the hours bank. */
export const hoursBankNotFound = () => new NotFoundError('HOURS_BANK_NOT_FOUND', 'Hours bank not found');
