import type { Express, RequestHandler } from 'express';
import {
  ReviewActionSchema,
  addThreadMessageRoute,
  blockGradesRoute,
  blocksApi,
  bulkReviewRoute,
  closeBlockRoute,
  completedBlocksRoute,
  myBlocksRoute,
  pendingBlocksRoute,
  pendingCountRoute,
  pendingRejectedRoute,
  readThreadRoute,
  reviewBlockRoute,
} from '@academy/contracts';
import { actorOf, requireAuth, requireRole } from '@academy/auth';
import { idParam } from '@academy/kit';
import { routeBinder } from '@academy/service';
import type { AcademicContext } from '../shared/academic-context.ts';
import { readBlockGrades } from './block-grades.ts';
import { countPendingBlocks, listCompletedBlocks, listPendingAndRejected, listPendingBlocks } from './block-listings.ts';
import { addThreadMessage, readThread } from './block-thread.ts';
import { blockIdRequired, invalidAction, studentBlockIdRequired, studentIdRequired, subjectIdRequired } from './blocks.errors.ts';
import { closeBlock } from './close-block.ts';
import { listMyBlocks } from './list-my-blocks.ts';
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

/** `/api/v2/blocks/*`. The review and the admin listings answer 401 to a non-admin, as the spec's review table says. */
export function registerBlockRoutes(app: Express, ctx: AcademicContext): void {
  const bind = routeBinder(app, ctx);
  const em = () => ctx.orm.em;

  bind(pendingBlocksRoute, async ({ query, res }) => {
    res.json(await listPendingBlocks(em(), query));
  });

  bind(pendingCountRoute, async ({ query, res }) => {
    res.json(await countPendingBlocks(em(), query));
  });

  bind(bulkReviewRoute, async ({ body, req, res }) => {
    const result = await reviewBlocks(em(), ctx.clock.now(), body, actorOf(req, res));
    ctx.relay.nudge();
    res.json(result);
  });

  bind(pendingRejectedRoute, async ({ query, res }) => {
    res.json(await listPendingAndRejected(em(), query));
  });

  bind(completedBlocksRoute, async ({ query, req, res }) => {
    res.json(await listCompletedBlocks(em(), query, actorOf(req, res)));
  });

  bind(myBlocksRoute, async ({ query, req, res }) => {
    res.json(await listMyBlocks(ctx, query, actorOf(req, res)));
  });

  bind(closeBlockRoute, byBlock, async ({ params, body, req, res }) => {
    const result = await closeBlock(em(), ctx.clock.now(), params.blockId, body, actorOf(req, res));
    ctx.relay.nudge();
    res.json(result);
  });

  // The review's id left out: STUDENT_BLOCK_ID_REQUIRED (not a route of its own: undocumented).
  app.post(['/api/v2/blocks/student-block/review', '/api/v2/blocks/student-block//review'], requireAuth(ctx.verifier, { message: blocksApi.unauthorizedMessage }), requireRole('admin', reviewBlockRoute.roleRefusal), () => {
    throw studentBlockIdRequired();
  });
  bind(reviewBlockRoute, { ...byStudentBlock, checkBody: actionFirst }, async ({ params, body, req, res }) => {
    const { studentBlockId } = params;
    const result = await reviewBlock(em(), ctx.clock.now(), studentBlockId, { action: body.action, reason: body.reason ?? null }, actorOf(req, res));
    if (body.action === 'reject') req.log.info({ studentBlockId, reason: body.reason ?? null }, 'block rejected');
    ctx.relay.nudge();
    res.json(result);
  });

  bind(readThreadRoute, byStudentBlock, async ({ params, req, res }) => {
    res.json(await readThread(em(), params.studentBlockId, actorOf(req, res)));
  });
  bind(addThreadMessageRoute, byStudentBlock, async ({ params, body, req, res }) => {
    res.status(201).json(await addThreadMessage(em(), params.studentBlockId, body.message, actorOf(req, res)));
  });

  bind(blockGradesRoute, { guards: [studentThenSubject] }, async ({ params, req, res }) => {
    res.json(await readBlockGrades(em(), params.studentId, params.subjectId, actorOf(req, res)));
  });
}
