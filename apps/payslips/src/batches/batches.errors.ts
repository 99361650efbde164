import { AppError, ConflictError, NotFoundError } from '@academy/kit';

export const batchNotFound = () => new NotFoundError('BATCH_NOT_FOUND', 'Batch not found');
/** Still being read is a "try again" (`Retry-After`, so an Idempotency-Key does not keep it); failed or discarded is final. */
export const batchNotReady = (status: string) =>
  status === 'reading'
    ? new AppError(409, 'BATCH_NOT_READY', 'The batch is still being read: try again when it is ready', { details: { status }, headers: { 'Retry-After': '2' } })
    : new ConflictError('BATCH_NOT_READY', `The batch is ${status}`, { status });
/** Its pages kept being assigned (or their employees changed) while it was published: a "try again", not kept by an Idempotency-Key. */
export const batchChanging = () =>
  new AppError(409, 'BATCH_NOT_READY', 'The batch changed while it was being published: try again', { details: { status: 'ready' }, headers: { 'Retry-After': '1' } });
export const batchPublished = () => new ConflictError('BATCH_PUBLISHED', 'The batch is published: delete or correct its payslips instead');
export const nothingToPublish = () => new ConflictError('NOTHING_TO_PUBLISH', 'No page of the batch is matched to an active employee: assign pages first');
export const pageOutOfRange = (pageCount: number) => new AppError(422, 'PAGE_OUT_OF_RANGE', `The batch has pages 1 to ${pageCount}`);
