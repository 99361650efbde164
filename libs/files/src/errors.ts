import { AppError, BadRequestError } from '@academy/kit';

const megabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 100) / 100} MB`;

export const malformedMultipart = (reason: string) => new BadRequestError('MALFORMED_MULTIPART', `Malformed multipart body: ${reason}`);
export const notMultipart = () => new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send multipart/form-data');
export const fieldTooLarge = (name: string, maxBytes: number) => new AppError(413, 'FIELD_TOO_LARGE', `Field "${name}" must be at most ${maxBytes} bytes`);
export const fileTooLarge = (maxBytes: number) => new AppError(413, 'FILE_TOO_LARGE', `A file must be at most ${megabytes(maxBytes)}`);
export const tooManyFiles = (max: number) => new AppError(413, 'TOO_MANY_FILES', `At most ${max} files per request`);
export const fileTypeNotAllowed = (allowed: readonly string[]) =>
  new AppError(415, 'FILE_TYPE_NOT_ALLOWED', `Allowed file types: ${allowed.join(', ')} (checked against the file's content)`);
/** The client stopped sending mid-body: answered, then the connection is closed (it cannot be read to its end). */
export const bodyStalled = (idleMs: number) =>
  new AppError(408, 'REQUEST_TIMEOUT', `The request body stalled: nothing received for ${idleMs / 1000} s`, { headers: { connection: 'close' } });
