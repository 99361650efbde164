import { AppError, ConflictError, NotFoundError } from '@academy/kit';

export const requestNotFound = () => new NotFoundError('PRIVACY_REQUEST_NOT_FOUND', 'Privacy request not found');
export const personNotFound = (kind: string) => new NotFoundError(`${kind.toUpperCase()}_NOT_FOUND`, `No ${kind} with this id`);
export const requestRunning = () => new ConflictError('PRIVACY_REQUEST_RUNNING', 'A request for this person is still running');
export const notAnAccessRequest = () => new ConflictError('NOT_AN_ACCESS_REQUEST', 'Only an access request has an export');
export const exportNotReady = (waitingFor: string[]) => new ConflictError('EXPORT_NOT_READY', `Not every service has answered yet (waiting for ${waitingFor.join(', ')})`);
export const exportRemoved = () => new AppError(410, 'EXPORT_REMOVED', 'The export was removed 30 days after the answers');
export const partUnreachable = (service: string) => new AppError(503, 'PART_UNREACHABLE', `The part of ${service} cannot be read now; try again later`, { headers: { 'retry-after': '30' } });
