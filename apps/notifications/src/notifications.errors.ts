import { AppError, ConflictError, NotFoundError, UnauthorizedError } from '@academy/kit';

// Error bodies of the notification routes are `{ success: false, message, code }` (errorStyle 'success').
export const deviceNotFound = () => new NotFoundError('DEVICE_NOT_FOUND', 'Device not found');
export const invalidApiKey = () => new UnauthorizedError('Invalid or missing API key', 'INVALID_API_KEY');
export const idempotencyKeyInProgress = () => new ConflictError('IDEMPOTENCY_KEY_IN_PROGRESS', 'A push send with this idempotencyKey is still in progress; retry later');
export const idempotencyKeyReused = () => new ConflictError('IDEMPOTENCY_KEY_REUSED', 'This idempotencyKey was used for a push send with another body');
export const pushProviderUnavailable = (cause: unknown) => new AppError(502, 'PUSH_PROVIDER_UNAVAILABLE', 'The push provider could not be reached; nothing was sent', { cause });
