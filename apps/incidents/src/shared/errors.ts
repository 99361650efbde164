import { AppError, BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '@academy/kit';

export const notAnEmployee = () => new ForbiddenError('Only employees have time records and their own incidents', 'NOT_AN_EMPLOYEE');
export const employeeInactive = () => new ForbiddenError('The employee is deactivated and cannot clock in', 'EMPLOYEE_INACTIVE');
export const employeeNotFound = () => new NotFoundError('EMPLOYEE_NOT_FOUND', 'Employee not found');
export const incidentNotFound = () => new NotFoundError('INCIDENT_NOT_FOUND', 'Incident not found');
export const fileNotFound = () => new NotFoundError('FILE_NOT_FOUND', 'File not found');
export const incidentClosed = () => new ConflictError('INCIDENT_CLOSED', 'The incident is closed');
export const recordAlreadyOpen = (details: unknown) =>
  new ConflictError('TIME_RECORD_ALREADY_OPEN', 'A time record is already open: clock out first. The attempt was recorded as an incident', details);
export const noOpenRecord = (details: unknown) =>
  new ConflictError('NO_OPEN_TIME_RECORD', 'There is no open time record to clock out. The attempt was recorded as an incident', details);
export const alreadyClockedOut = (details: unknown) => new ConflictError('ALREADY_CLOCKED_OUT', 'Already clocked out', details);
export const adminUsesAdminThread = () => new ForbiddenError('Administrators write with POST /api/v2/incident/:id/admin-thread', 'FORBIDDEN');
export const employeeIdRequired = () => new BadRequestError('EMPLOYEE_ID_REQUIRED', 'employeeId is required for an administrator without an employee of their own');

// Uploads
export const unsupportedMediaType = () => new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send application/json or multipart/form-data');
