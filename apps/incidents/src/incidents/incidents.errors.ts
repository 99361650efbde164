import { AppError, ConflictError, ForbiddenError, NotFoundError } from '@academy/kit';

export const incidentNotFound = () => new NotFoundError('INCIDENT_NOT_FOUND', 'Incident not found');
export const fileNotFound = () => new NotFoundError('FILE_NOT_FOUND', 'File not found');
export const incidentClosed = () => new ConflictError('INCIDENT_CLOSED', 'The incident is closed');
export const adminUsesAdminThread = () => new ForbiddenError('Administrators write with POST /api/v2/incident/:id/admin-thread', 'FORBIDDEN');
/** A thread message in neither JSON nor multipart/form-data. */
export const unsupportedMediaType = () => new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send application/json or multipart/form-data');
