import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '@academy/kit';

export const employeeInactive = () => new ForbiddenError('The employee is deactivated and cannot clock in', 'EMPLOYEE_INACTIVE');
export const employeeDeleted = () => new ForbiddenError('The employee was deleted and cannot clock out', 'EMPLOYEE_DELETED');
export const employeeNotFound = () => new NotFoundError('EMPLOYEE_NOT_FOUND', 'Employee not found');
export const recordAlreadyOpen = (details: unknown) =>
  new ConflictError('TIME_RECORD_ALREADY_OPEN', 'A time record is already open: clock out first. The attempt was recorded as an incident', details);
export const noOpenRecord = (details: unknown) =>
  new ConflictError('NO_OPEN_TIME_RECORD', 'There is no open time record to clock out. The attempt was recorded as an incident', details);
export const alreadyClockedOut = (details: unknown) => new ConflictError('ALREADY_CLOCKED_OUT', 'Already clocked out', details);
export const employeeIdRequired = () => new BadRequestError('EMPLOYEE_ID_REQUIRED', 'employeeId is required for an administrator without an employee of their own');
