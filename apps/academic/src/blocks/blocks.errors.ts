import { BadRequestError, ForbiddenError, NotFoundError } from '@academy/kit';
import { BlockErrorCode as Code, REVIEW_ACTION_VALUES } from '@academy/contracts';

// The review's codes and conditions are the spec's "Blocks review" table; the rest are ours.
export const studentBlockIdRequired = (details?: unknown) => new BadRequestError(Code.STUDENT_BLOCK_ID_REQUIRED, 'Student block ID is required', details);
export const invalidAction = () => new BadRequestError(Code.INVALID_ACTION, `Action must be one of: ${REVIEW_ACTION_VALUES.join(', ')}`);
export const invalidStatusForReview = (status: string) =>
  new BadRequestError(Code.INVALID_STATUS_FOR_REVIEW, `Only pending blocks can be reviewed; this block is ${status}`, { currentStatus: status });
export const studentBlockNotFound = () => new NotFoundError(Code.STUDENT_BLOCK_NOT_FOUND, 'Student block not found');

export const blockIdRequired = (details?: unknown) => new BadRequestError(Code.BLOCK_ID_REQUIRED, 'Block ID is required', details);
export const studentIdRequired = (details?: unknown) => new BadRequestError(Code.STUDENT_ID_REQUIRED, 'Student ID is required', details);
export const subjectIdRequired = (details?: unknown) => new BadRequestError(Code.SUBJECT_ID_REQUIRED, 'Subject ID is required', details);
export const invalidStatusForClose = (status: string) =>
  new BadRequestError(Code.INVALID_STATUS_FOR_CLOSE, `Only open blocks can be closed; this block is ${status}`, { currentStatus: status });
export const blockNotFound = () => new NotFoundError(Code.BLOCK_NOT_FOUND, 'Block not found');
export const studentHasNoSuchBlock = () => new NotFoundError(Code.STUDENT_BLOCK_NOT_FOUND, 'The student has no such block (not registered in its subject)');
export const studentNotFound = () => new NotFoundError(Code.STUDENT_NOT_FOUND, 'Student not found');
export const subjectNotFound = () => new NotFoundError(Code.SUBJECT_NOT_FOUND, 'Subject not found');
export const studentHasNoBlocksInSubject = () => new NotFoundError(Code.STUDENT_BLOCK_NOT_FOUND, 'The student has no blocks in this subject');
export const schoolCourseNotFound = () => new NotFoundError(Code.SCHOOL_COURSE_NOT_FOUND, 'School course not found');
export const notTheTeacher = () => new ForbiddenError("Only an administrator or the student's teacher in this subject may do this", Code.FORBIDDEN);
export const notAnEmployee = () => new ForbiddenError('Only administrators and employees may list completed blocks', Code.FORBIDDEN);
