import type { RequestHandler } from 'express';
import {
  ReviewActionSchema,
  addThreadMessageRoute,
  blockGradesRoute,
  bulkReviewRoute,
  closeBlockRoute,
  completedBlocksRoute,
  contract,
  myBlocksRoute,
  pendingBlocksRoute,
  pendingCountRoute,
  pendingRejectedRoute,
  readThreadRoute,
  reviewBlockRoute,
} from '@academy/contracts';
import { idParam } from '@academy/kit';
import { statementKeyOf } from '@academy/service';
import { implement } from '../shared/academic-context.ts';
import { JSON_TEXT, sentAsIs } from '../shared/sent-as-is.ts';
import { addThreadMessage } from './add-thread-message.ts';
import { blockIdRequired, invalidAction, studentBlockIdRequired, studentIdRequired, subjectIdRequired } from './blocks.errors.ts';
import { closeBlock } from './close-block.ts';
import { countPendingBlocks } from './count-pending-blocks.ts';
import { listCompletedBlocks } from './list-completed-blocks.ts';
import { listMyBlocks } from './list-my-blocks.ts';
import { listPendingAndRejected } from './list-pending-and-rejected.ts';
import { listPendingBlocks } from './list-pending-blocks.ts';
import { readBlockGrades } from './read-block-grades.ts';
import { readThread } from './read-thread.ts';
import { reviewBlock } from './review-block.ts';
import { reviewBlocks } from './review-blocks.ts';

// A malformed path id is the route's "… ID is required", with what was wrong in `details`.
const byBlock = { invalidParams: blockIdRequired };
const byStudentBlock = { invalidParams: studentBlockIdRequired };
/** The student's id is checked before the subject's, each with its own error. */
const studentThenSubject: RequestHandler = (req, _res, next) => {
  idParam(req.params, 'studentId', studentIdRequired);
  idParam(req.params, 'subjectId', subjectIdRequired);
  next();
};
/** The spec's INVALID_ACTION comes before the body's other fields. */
const actionFirst = (body: unknown) => {
  if (!ReviewActionSchema.safeParse((body as { action?: unknown } | undefined)?.action).success) throw invalidAction();
};

/**
 * The review with its id left out (`…/student-block/review`, or `//review`): STUDENT_BLOCK_ID_REQUIRED
 * after the review's own authentication and role. Not a route of its own (the document leaves it
 * out); the router's `paramLeftOut` takes only a last parameter, and this one sits mid-path.
 */
const reviewIdLeftOut = (path: string) => ({ ...reviewBlockRoute, path, request: {} });

/** The blocks routes by name (`/api/v2/blocks/*`), which `blockRoutes` implements key for key. */
export const blocksContract = contract({
  pending: pendingBlocksRoute,
  pendingCount: pendingCountRoute,
  bulkReview: bulkReviewRoute,
  pendingRejected: pendingRejectedRoute,
  completed: completedBlocksRoute,
  mine: myBlocksRoute,
  close: closeBlockRoute,
  reviewIdLeftOut: reviewIdLeftOut('/api/v2/blocks/student-block/review'),
  reviewIdLeftEmpty: reviewIdLeftOut('/api/v2/blocks/student-block//review'),
  review: reviewBlockRoute,
  readThread: readThreadRoute,
  addThreadMessage: addThreadMessageRoute,
  grades: blockGradesRoute,
});

/** `/api/v2/blocks/*`. The review and the admin listings answer 401 to a non-admin, as the spec's review table says. */
export const blockRoutes = implement(blocksContract, {
  pending: async ({ query }, ctx, actor) => ({ status: 200, body: sentAsIs(await listPendingBlocks(ctx, query, actor)), headers: JSON_TEXT }),
  pendingCount: async ({ query }, ctx, actor) => ({ status: 200, body: sentAsIs(await countPendingBlocks(ctx, query, actor)), headers: JSON_TEXT }),
  bulkReview: async ({ body }, ctx, actor) => ({ status: 200, body: await reviewBlocks(ctx, body, actor) }),
  pendingRejected: async ({ query }, ctx, actor) => ({ status: 200, body: await listPendingAndRejected(ctx, query, actor) }),
  completed: async ({ query }, ctx, actor) => ({ status: 200, body: await listCompletedBlocks(ctx, query, actor) }),
  mine: async ({ query }, ctx, actor) => ({ status: 200, body: await listMyBlocks(ctx, query, actor) }),
  close: { options: byBlock, handle: async ({ params, body }, ctx, actor) => ({ status: 200, body: await closeBlock(ctx, { ...body, blockId: params.blockId }, actor) }) },
  reviewIdLeftOut: async () => {
    throw studentBlockIdRequired();
  },
  reviewIdLeftEmpty: async () => {
    throw studentBlockIdRequired();
  },
  review: {
    // An Idempotency-Key is recorded in the review's own statement (one round trip), not in a transaction around it.
    options: { ...byStudentBlock, checkBody: actionFirst, keyInStatement: true },
    handle: async ({ params, body, req }, ctx, actor) => {
      const { studentBlockId } = params;
      const answer = await reviewBlock(ctx, { studentBlockId, action: body.action, reason: body.reason ?? null, key: statementKeyOf(req) }, actor);
      if (body.action === 'reject') req.log.info({ studentBlockId, reason: body.reason ?? null }, 'block rejected');
      return { status: 200, body: answer };
    },
  },
  readThread: { options: byStudentBlock, handle: async ({ params }, ctx, actor) => ({ status: 200, body: await readThread(ctx, { studentBlockId: params.studentBlockId }, actor) }) },
  addThreadMessage: {
    options: byStudentBlock,
    handle: async ({ params, body }, ctx, actor) => ({ status: 201, body: await addThreadMessage(ctx, { studentBlockId: params.studentBlockId, message: body.message }, actor) }),
  },
  grades: {
    options: { guards: [studentThenSubject] },
    handle: async ({ params }, ctx, actor) => ({ status: 200, body: await readBlockGrades(ctx, { studentId: params.studentId, subjectId: params.subjectId }, actor) }),
  },
});
