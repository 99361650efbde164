import { AppError, ConflictError, NotFoundError } from '@academy/kit';

export const batchNotFound = () => new NotFoundError('BATCH_NOT_FOUND', 'Batch not found');
export const batchNotReady = (status: string) =>
  new ConflictError('BATCH_NOT_READY', status === 'reading' ? 'The batch is still being read: try again when it is ready' : `The batch is ${status}`, { status });
export const batchPublished = () => new ConflictError('BATCH_PUBLISHED', 'The batch is published: delete or correct its payslips instead');
export const nothingToPublish = () => new ConflictError('NOTHING_TO_PUBLISH', 'No page of the batch is matched to an active employee: assign pages first');
export const pageOutOfRange = (pageCount: number) => new AppError(422, 'PAGE_OUT_OF_RANGE', `The batch has pages 1 to ${pageCount}`);
