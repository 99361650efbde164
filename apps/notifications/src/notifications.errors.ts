import { ConflictError, ForbiddenError, NotFoundError } from '@academy/kit';

// Error bodies of the notification routes are `{ success: false, message, code }` (errorStyle 'success').
export const optOutNotFound = () => new NotFoundError('OPT_OUT_NOT_FOUND', 'This address has not unsubscribed from this type');
export const deviceNotFound = () => new NotFoundError('DEVICE_NOT_FOUND', 'Device not found');
export const idempotencyKeyInProgress = () => new ConflictError('IDEMPOTENCY_KEY_IN_PROGRESS', 'A push send with this idempotencyKey is still in progress; retry later');
export const idempotencyKeyReused = () => new ConflictError('IDEMPOTENCY_KEY_REUSED', 'This idempotencyKey was used for a push send with another body');
export const userErased = () => new ForbiddenError('This login was erased: it cannot register a device', 'USER_ERASED');
