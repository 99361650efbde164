// HTTP contracts of content blocks (academic): request bodies, queries, responses, error codes and
// their routes (`blocksApi`). The spec fixes the pending listing and the review; the other payloads
// are ours. Bodies are strict: unknown fields are a 400.
import { z } from 'zod';
import { DirectoryPageQuery } from './academic.ts';
import { ErrorBody, Id, IdPathParam, IdText, PageMeta, jsonContent, queryObject } from './common.ts';
import { routeFamily } from '../routes.ts';

export const STUDENT_BLOCK_STATUS_VALUES = ['open', 'blocked', 'pending', 'closed'] as const;
export type StudentBlockStatus = (typeof STUDENT_BLOCK_STATUS_VALUES)[number];
export const REVIEW_ACTION_VALUES = ['approve', 'reject'] as const;
export type ReviewAction = (typeof REVIEW_ACTION_VALUES)[number];

/** Longest thread message and rejection reason, in characters. */
export const BLOCK_MESSAGE_MAX_LENGTH = 5000;
/** Largest page of the pending listing when `limit` is given (without it, every pending block). */
export const PENDING_BLOCKS_MAX_LIMIT = 1000;

/** Codes of the block routes' errors (the review's are the spec's "Blocks review" table). */
export const BlockErrorCode = {
  STUDENT_BLOCK_ID_REQUIRED: 'STUDENT_BLOCK_ID_REQUIRED',
  INVALID_ACTION: 'INVALID_ACTION',
  INVALID_STATUS_FOR_REVIEW: 'INVALID_STATUS_FOR_REVIEW',
  STUDENT_BLOCK_NOT_FOUND: 'STUDENT_BLOCK_NOT_FOUND',
  BLOCK_ID_REQUIRED: 'BLOCK_ID_REQUIRED',
  STUDENT_ID_REQUIRED: 'STUDENT_ID_REQUIRED',
  SUBJECT_ID_REQUIRED: 'SUBJECT_ID_REQUIRED',
  INVALID_STATUS_FOR_CLOSE: 'INVALID_STATUS_FOR_CLOSE',
  BLOCK_NOT_FOUND: 'BLOCK_NOT_FOUND',
  STUDENT_NOT_FOUND: 'STUDENT_NOT_FOUND',
  SUBJECT_NOT_FOUND: 'SUBJECT_NOT_FOUND',
  SCHOOL_COURSE_NOT_FOUND: 'SCHOOL_COURSE_NOT_FOUND',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
} as const;


/** Free text without NUL characters (PostgreSQL cannot store them). */
const text = () => z.string().regex(/^[^\u0000]*$/, { error: 'must not contain NUL characters' });
const timestamp = z.string().describe('ISO 8601 UTC timestamp');
const nullableTimestamp = timestamp.nullable();
const grade = z.number().nullable().describe('0–10, two decimals at most; null while ungraded');
/** Which student block a listing row is: the student, the block and its place in the subject. */
const studentBlockOfSubject = {
  studentBlockId: Id,
  studentId: Id,
  studentName: z.string(),
  blockId: Id,
  blockName: z.string(),
  position: z.number().int(),
  subjectId: Id,
  subjectName: z.string(),
};

/** A grade from 0 to 10 with at most two decimals (7.12 passes, 7.123 does not). */
export const BlockGrade = z
  .number({ error: 'must be a number' })
  .min(0, { error: 'must be at least 0' })
  .max(10, { error: 'must be at most 10' })
  .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-7, { error: 'must have at most two decimals' });

// ---------------------------------------------------------------- close

export const CloseBlockBody = z.strictObject({
  studentId: Id,
  grade: BlockGrade.nullable().optional(),
});
export type CloseBlockBody = z.infer<typeof CloseBlockBody>;

export const CloseBlockResponse = z.object({
  ok: z.literal(true),
  studentBlockId: Id,
  blockId: Id,
  studentId: Id,
  previousStatus: z.literal('open'),
  newStatus: z.literal('pending'),
  grade,
  closedAt: timestamp,
});

// ---------------------------------------------------------------- pending listing (spec)

/**
 * Where a page of the pending listing starts: the `nextCursor` of the page before, opaque to
 * clients (the last block's close time in microseconds since 1970, `n` for none, and its id).
 */
export const PendingCursor = z
  .string()
  .regex(/^(n|0|-?[1-9][0-9]{0,15})\.[1-9][0-9]{0,9}$/, { error: 'must be a nextCursor of this listing' })
  .transform((text) => {
    const [closedAt, id] = text.split('.') as [string, string];
    return { closedAtMicros: closedAt === 'n' ? null : Number(closedAt), id: Number(id) };
  })
  .refine((cursor) => (cursor.closedAtMicros === null || Number.isSafeInteger(cursor.closedAtMicros)) && Id.safeParse(cursor.id).success, { error: 'must be a nextCursor of this listing' });
export type PendingCursor = z.infer<typeof PendingCursor>;

export const PendingBlocksQuery = queryObject({
  studentId: IdText.optional(),
  subjectId: IdText.optional(),
  limit: IdText.pipe(Id.max(PENDING_BLOCKS_MAX_LIMIT, { error: `must be at most ${PENDING_BLOCKS_MAX_LIMIT}` })).optional(),
  page: IdText.optional(),
  after: PendingCursor.optional().describe('the nextCursor of the page before: the page after it (keyset; with limit, without page)'),
})
  .refine((query) => query.after === undefined || query.limit !== undefined, { path: ['after'], error: 'needs limit' })
  .refine((query) => query.after === undefined || query.page === undefined, { path: ['after'], error: 'cannot be combined with page' });
export type PendingBlocksQuery = z.infer<typeof PendingBlocksQuery>;

export const PendingBlock = z.object({
  studentBlockId: Id,
  blockId: Id,
  blockName: z.string(),
  subjectId: Id,
  subjectName: z.string(),
  grade,
  status: z.literal('pending'),
  employeeId: Id.nullable(),
  employeeName: z.string(),
  closedAt: nullableTimestamp,
});
export type PendingBlock = z.infer<typeof PendingBlock>;

export const PendingBlocksGroup = z.object({ studentId: Id, studentName: z.string(), blocks: z.array(PendingBlock) });

export const PendingBlocksResponse = z.object({
  ok: z.literal(true),
  total: z.number().int().describe('number of pending blocks returned'),
  byStudent: z.array(PendingBlocksGroup),
  nextCursor: z.string().nullable().optional().describe('with limit: `after` of the next page, null when this page is not full; absent without limit'),
});
export type PendingBlocksResponse = z.infer<typeof PendingBlocksResponse>;

// ---------------------------------------------------------------- review (spec)

export const ReviewActionSchema = z.enum(REVIEW_ACTION_VALUES);

export const ReviewBody = z.strictObject({
  action: ReviewActionSchema,
  reason: text().trim().max(BLOCK_MESSAGE_MAX_LENGTH, { error: `must be at most ${BLOCK_MESSAGE_MAX_LENGTH} characters` }).nullable().optional(),
});
export type ReviewBody = z.infer<typeof ReviewBody>;

export const ReviewResponse = z.object({
  ok: z.literal(true),
  studentBlockId: Id,
  blockId: Id,
  studentId: Id,
  previousStatus: z.literal('pending'),
  newStatus: z.enum(['closed', 'open']),
  action: ReviewActionSchema,
  nextBlockUnlocked: z.boolean().optional().describe('approve only, when another block follows'),
  subjectCompleted: z.literal(true).optional().describe('approve only, when it was the last block of the subject'),
  message: z.string(),
});
export type ReviewResponse = z.infer<typeof ReviewResponse>;

// ---------------------------------------------------------------- bulk review and the badge count

/** Most items of one bulk review. */
export const BULK_REVIEW_MAX_ITEMS = 100;

export const BulkReviewItem = z
  .strictObject({
    studentBlockId: Id,
    action: z.enum(REVIEW_ACTION_VALUES, { error: `must be one of: ${REVIEW_ACTION_VALUES.join(', ')}` }),
    grade: BlockGrade.nullable().optional().describe('approve only: the grade written with the approval'),
    reason: text().trim().max(BLOCK_MESSAGE_MAX_LENGTH, { error: `must be at most ${BLOCK_MESSAGE_MAX_LENGTH} characters` }).nullable().optional(),
  })
  .superRefine((item, ctx) => {
    if (item.action === 'reject' && item.grade !== undefined && item.grade !== null) ctx.addIssue({ code: 'custom', path: ['grade'], message: 'is only given with approve' });
  });

export const BulkReviewBody = z.strictObject({
  items: z
    .array(BulkReviewItem)
    .min(1, { error: 'must hold at least one item' })
    .max(BULK_REVIEW_MAX_ITEMS, { error: `must hold at most ${BULK_REVIEW_MAX_ITEMS} items` })
    .superRefine((items, ctx) => {
      const seen = new Set<number>();
      items.forEach((item, index) => {
        if (seen.has(item.studentBlockId)) ctx.addIssue({ code: 'custom', path: [index, 'studentBlockId'], message: `${item.studentBlockId} is named twice` });
        seen.add(item.studentBlockId);
      });
    }),
});
export type BulkReviewBody = z.infer<typeof BulkReviewBody>;

export const BulkReviewOutcome = z.object({
  studentBlockId: Id,
  ok: z.boolean(),
  code: z.string().optional().describe("the single review's error code when it failed"),
  message: z.string().optional(),
});
export type BulkReviewOutcome = z.infer<typeof BulkReviewOutcome>;

export const BulkReviewResponse = z.object({
  ok: z.literal(true),
  reviewed: z.number().int().describe('items applied'),
  failed: z.number().int(),
  results: z.array(BulkReviewOutcome).describe('one per item, in the order given'),
});
export type BulkReviewResponse = z.infer<typeof BulkReviewResponse>;

export const PendingCountQuery = queryObject({ subjectId: IdText.optional() });
export type PendingCountQuery = z.infer<typeof PendingCountQuery>;
export const PendingCountResponse = z.object({ ok: z.literal(true), count: z.number().int().describe('blocks awaiting review') });
export type PendingCountResponse = z.infer<typeof PendingCountResponse>;

// ---------------------------------------------------------------- pending and rejected

export const PendingRejectedQuery = queryObject({
  studentId: IdText.optional(),
  subjectId: IdText.optional(),
  state: z.enum(['pending', 'rejected']).optional(),
});
export type PendingRejectedQuery = z.infer<typeof PendingRejectedQuery>;

export const PendingRejectedItem = z.object({
  ...studentBlockOfSubject,
  state: z.enum(['pending', 'rejected']).describe('pending: awaiting review; rejected: back with the teacher, not closed again yet'),
  status: z.enum(['pending', 'open']),
  grade,
  employeeId: Id.nullable(),
  employeeName: z.string().nullable(),
  closedAt: nullableTimestamp.describe('when the teacher last closed it'),
  rejectedAt: nullableTimestamp.describe('the last rejection; also set on a pending block rejected before'),
});

export const PendingRejectedResponse = z.object({
  ok: z.literal(true),
  total: z.number().int(),
  pendingCount: z.number().int(),
  rejectedCount: z.number().int(),
  blocks: z.array(PendingRejectedItem).describe('pending ones first, oldest close first; then rejected ones, oldest rejection first'),
});

// ---------------------------------------------------------------- completed

export const CompletedBlocksQuery = DirectoryPageQuery.omit({ search: true }).extend({
  schoolCourseId: IdText.optional(),
  subjectId: IdText.optional(),
  studentId: IdText.optional(),
});
export type CompletedBlocksQuery = z.infer<typeof CompletedBlocksQuery>;

export const CompletedBlockItem = z.object({
  ...studentBlockOfSubject,
  grade,
  employeeId: Id.nullable(),
  employeeName: z.string().nullable(),
  closedAt: nullableTimestamp,
  approvedAt: nullableTimestamp,
});

export const CompletedBlocksResponse = z.object({
  ok: z.literal(true),
  schoolCourseId: Id,
  data: z.array(CompletedBlockItem),
  meta: PageMeta,
});

// ---------------------------------------------------------------- a teacher's blocks

export const MyBlocksQuery = queryObject({ subjectId: IdText.optional() });
export type MyBlocksQuery = z.infer<typeof MyBlocksQuery>;

export const MyBlockItem = z.object({
  ...studentBlockOfSubject,
  state: z.enum(['open', 'pending', 'rejected']).describe('open: to close; pending: closed, awaiting review; rejected: back with the teacher, not closed again yet'),
  status: z.enum(['open', 'pending']),
  grade,
  closedAt: nullableTimestamp.describe('when it was last closed'),
  rejectedAt: nullableTimestamp.describe('the last rejection'),
  rejectionReason: z.string().nullable().describe("the last rejection's reason, as the administrator wrote it in the thread"),
});

export const MyBlocksResponse = z.object({
  ok: z.literal(true),
  schoolCourseId: Id.nullable().describe('the latest school course; null when there is none'),
  total: z.number().int(),
  blocks: z.array(MyBlockItem).describe('by subject, then student, then block position'),
});
export type MyBlocksResponse = z.infer<typeof MyBlocksResponse>;

// ---------------------------------------------------------------- thread

export const ThreadMessageBody = z.strictObject({
  message: text()
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(BLOCK_MESSAGE_MAX_LENGTH, { error: `must be at most ${BLOCK_MESSAGE_MAX_LENGTH} characters` }),
});
export type ThreadMessageBody = z.infer<typeof ThreadMessageBody>;

export const ThreadMessage = z.object({
  id: Id,
  studentBlockId: Id,
  authorUserId: Id.nullable(),
  authorRole: z.enum(['admin', 'teacher']),
  authorName: z.string().nullable().describe("the author's employee name, when their login has one"),
  kind: z.enum(['message', 'rejection']).describe('rejection: the reason an administrator gave when rejecting the block'),
  message: z.string(),
  createdAt: timestamp,
});
export type ThreadMessage = z.infer<typeof ThreadMessage>;

export const ThreadResponse = z.object({
  ok: z.literal(true),
  studentBlockId: Id,
  blockId: Id,
  studentId: Id,
  status: z.enum(STUDENT_BLOCK_STATUS_VALUES),
  messages: z.array(ThreadMessage).describe('oldest first'),
});

export const ThreadMessageCreated = z.object({ ok: z.literal(true), data: ThreadMessage });

// ---------------------------------------------------------------- grades

export const BlockGradeItem = z.object({
  studentBlockId: Id,
  blockId: Id,
  blockName: z.string(),
  position: z.number().int(),
  status: z.enum(STUDENT_BLOCK_STATUS_VALUES),
  grade,
  closedAt: nullableTimestamp,
  approvedAt: nullableTimestamp,
});

export const BlockGradesResponse = z.object({
  ok: z.literal(true),
  studentId: Id,
  studentName: z.string(),
  subjectId: Id,
  subjectName: z.string(),
  blocks: z.array(BlockGradeItem).describe('every block of the subject, in order'),
  gradedCount: z.number().int(),
  average: z.number().nullable().describe('mean of the graded blocks, two decimals; null when none is graded'),
});

// ---------------------------------------------------------------- routes

/** `/api/v2/blocks`: every route needs a token; the review and the admin listings answer 401 to a non-admin, as the spec's review table says. */
export const blocksApi = routeFamily({ prefix: '/api/v2/blocks', service: 'academic', access: 'bearer', errorStyle: 'default', unauthorizedMessage: 'Unauthorized', tags: ['Blocks'] });

const error = (description: string) => jsonContent(ErrorBody, description);
const unauthorized = error('UNAUTHORIZED: token missing or expired');
const unauthorizedAdmin = error('UNAUTHORIZED: token missing, expired, or caller not an administrator');
const forbidden = error("FORBIDDEN: neither an administrator nor the student's teacher");
const adminOnly = { role: 'admin', roleRefusal: { status: 401 } } as const;

export const closeBlockRoute = blocksApi.route({
  method: 'post',
  path: '/api/v2/blocks/{blockId}/close',
  summary: "Close an open block for a student (the teacher of the student's registration in the subject, or an admin); records block.closed",
  request: { params: IdPathParam('blockId'), body: CloseBlockBody },
  responses: {
    200: jsonContent(CloseBlockResponse, 'Closed: now pending review'),
    400: error('BLOCK_ID_REQUIRED, VALIDATION_ERROR (studentId, grade 0–10 with two decimals at most), INVALID_STATUS_FOR_CLOSE (naming the current status)'),
    401: unauthorized,
    403: forbidden,
    404: error('BLOCK_NOT_FOUND, STUDENT_BLOCK_NOT_FOUND (the student has no such block)'),
  },
});

export const pendingBlocksRoute = blocksApi.route({
  method: 'get',
  path: '/api/v2/blocks/pending',
  summary: 'Blocks awaiting review, grouped by student, oldest close first (admin)',
  ...adminOnly,
  request: { query: PendingBlocksQuery },
  responses: { 200: jsonContent(PendingBlocksResponse, 'Pending blocks'), 400: error('VALIDATION_ERROR'), 401: unauthorizedAdmin },
});

export const reviewBlockRoute = blocksApi.route({
  method: 'post',
  path: '/api/v2/blocks/student-block/{studentBlockId}/review',
  summary: 'Approve (records block.approved, unlocks the next block) or reject (back to open; the reason goes to the thread) a pending block (admin)',
  ...adminOnly,
  request: { params: IdPathParam('studentBlockId'), body: ReviewBody },
  responses: {
    200: jsonContent(ReviewResponse, 'Review applied'),
    400: error('STUDENT_BLOCK_ID_REQUIRED, INVALID_ACTION, INVALID_STATUS_FOR_REVIEW, VALIDATION_ERROR (reason)'),
    401: unauthorizedAdmin,
    404: error('STUDENT_BLOCK_NOT_FOUND'),
  },
});

export const bulkReviewRoute = blocksApi.route({
  method: 'post',
  path: '/api/v2/blocks/review',
  summary: 'Approve or reject up to 100 pending blocks, each with the single review’s rules and its own event (admin)',
  description:
    'Each item is reviewed on its own (its own transaction; under an Idempotency-Key one transaction with a savepoint per item), so one failing item leaves the others applied. 200 even when some fail: `results` gives each item’s outcome in order.',
  ...adminOnly,
  request: { body: BulkReviewBody },
  responses: {
    200: jsonContent(BulkReviewResponse, 'Each item’s outcome'),
    400: error('VALIDATION_ERROR (items: 0 or more than 100, a duplicate studentBlockId, an unknown action, grade with reject, reason)'),
    401: unauthorizedAdmin,
  },
});

export const pendingCountRoute = blocksApi.route({
  method: 'get',
  path: '/api/v2/blocks/pending/count',
  summary: 'How many blocks await review: the badge (admin)',
  ...adminOnly,
  request: { query: PendingCountQuery },
  responses: { 200: jsonContent(PendingCountResponse, 'The count'), 400: error('VALIDATION_ERROR'), 401: unauthorizedAdmin },
});

export const pendingRejectedRoute = blocksApi.route({
  method: 'get',
  path: '/api/v2/blocks/pending-rejected',
  summary: 'Blocks pending review and blocks rejected and not closed again yet (admin)',
  ...adminOnly,
  request: { query: PendingRejectedQuery },
  responses: { 200: jsonContent(PendingRejectedResponse, 'Pending and rejected blocks'), 400: error('VALIDATION_ERROR'), 401: unauthorizedAdmin },
});

export const completedBlocksRoute = blocksApi.route({
  method: 'get',
  path: '/api/v2/blocks/completed',
  summary: 'Closed (approved) blocks of the students registered in a school course, the latest by default, newest approval first; a teacher sees those of their registrations',
  request: { query: CompletedBlocksQuery },
  responses: {
    200: jsonContent(CompletedBlocksResponse, 'A page of completed blocks'),
    400: error('VALIDATION_ERROR'),
    401: unauthorized,
    403: error('FORBIDDEN: a user who is not an employee'),
    404: error('SCHOOL_COURSE_NOT_FOUND'),
  },
});

export const myBlocksRoute = blocksApi.route({
  method: 'get',
  path: '/api/v2/blocks/mine',
  summary: "The caller's students' blocks to act on (an employee): for each registration of the latest school course that names them, the subject's open, pending and rejected blocks, with the last rejection's reason",
  request: { query: MyBlocksQuery },
  responses: {
    200: jsonContent(MyBlocksResponse, "The teacher's open, pending and rejected blocks"),
    400: error('VALIDATION_ERROR'),
    401: unauthorized,
    403: error('FORBIDDEN: a user who is not an employee'),
  },
});

export const readThreadRoute = blocksApi.route({
  method: 'get',
  path: '/api/v2/blocks/student-block/{studentBlockId}/thread',
  summary: "Messages between the student's teacher and the administration about one student block",
  request: { params: IdPathParam('studentBlockId') },
  responses: { 200: jsonContent(ThreadResponse, 'The thread'), 400: error('STUDENT_BLOCK_ID_REQUIRED'), 401: unauthorized, 403: forbidden, 404: error('STUDENT_BLOCK_NOT_FOUND') },
});

export const addThreadMessageRoute = blocksApi.route({
  method: 'post',
  path: '/api/v2/blocks/student-block/{studentBlockId}/thread',
  summary: "Add a message to a student block's thread (the student's teacher or an admin)",
  request: { params: IdPathParam('studentBlockId'), body: ThreadMessageBody },
  responses: {
    201: jsonContent(ThreadMessageCreated, 'Added'),
    400: error(`STUDENT_BLOCK_ID_REQUIRED, VALIDATION_ERROR (message: 1–${BLOCK_MESSAGE_MAX_LENGTH} characters)`),
    401: unauthorized,
    403: forbidden,
    404: error('STUDENT_BLOCK_NOT_FOUND'),
    413: error('PAYLOAD_TOO_LARGE'),
  },
});

export const blockGradesRoute = blocksApi.route({
  method: 'get',
  path: '/api/v2/blocks/grades/{studentId}/{subjectId}',
  summary: "Each block of a subject for a student, in order, with status and grade, and the average of the graded ones (admin or the student's teacher)",
  request: { params: z.object({ studentId: IdText, subjectId: IdText }) },
  responses: {
    200: jsonContent(BlockGradesResponse, 'Grades'),
    400: error('STUDENT_ID_REQUIRED, SUBJECT_ID_REQUIRED'),
    401: unauthorized,
    403: forbidden,
    404: error('STUDENT_NOT_FOUND, SUBJECT_NOT_FOUND, STUDENT_BLOCK_NOT_FOUND (the student has no blocks in the subject)'),
  },
});
