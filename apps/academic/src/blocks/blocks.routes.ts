import { Router, type Express, type Request } from 'express';
import { BulkReviewBody, CloseBlockBody, CompletedBlocksQuery, PendingBlocksQuery, PendingCountQuery, PendingRejectedQuery, ReviewActionSchema, ReviewBody, ThreadMessageBody } from '@academy/contracts';
import { actorOf, requireAuth, requireRole } from '@academy/auth';
import { idParam, noQuery } from '@academy/kit';
import type { AcademicContext } from '../shared/academic-context.ts';
import { readBlockGrades } from './block-grades.ts';
import { countPendingBlocks, listCompletedBlocks, listPendingAndRejected, listPendingBlocks } from './block-listings.ts';
import { addThreadMessage, readThread } from './block-thread.ts';
import { blockIdRequired, invalidAction, studentBlockIdRequired, studentIdRequired, subjectIdRequired } from './blocks.errors.ts';
import { closeBlock } from './close-block.ts';
import { reviewBlock } from './review-block.ts';
import { reviewBlocks } from './review-blocks.ts';

// A malformed path id is the route's "… ID is required", with what was wrong in `details`.
const studentBlockIdOf = (req: Request) => idParam(req.params, 'studentBlockId', studentBlockIdRequired);

/** `/api/v2/blocks/*`. The review and the admin listings answer 401 to a non-admin, as the spec's review table says. */
export function registerBlockRoutes(app: Express, ctx: AcademicContext): void {
  const router = Router();
  const em = () => ctx.orm.em;
  const adminOnly = requireRole('admin', { status: 401 });
  router.use(requireAuth(ctx.verifier));

  router.get('/pending', adminOnly, async (req, res) => {
    res.json(await listPendingBlocks(em(), PendingBlocksQuery.parse(req.query)));
  });

  router.get('/pending/count', adminOnly, async (req, res) => {
    res.json(await countPendingBlocks(em(), PendingCountQuery.parse(req.query)));
  });

  router.post('/review', adminOnly, noQuery, async (req, res) => {
    const result = await reviewBlocks(em(), ctx.clock.now(), BulkReviewBody.parse(req.body ?? {}), actorOf(req, res));
    ctx.relay.nudge();
    res.json(result);
  });

  router.get('/pending-rejected', adminOnly, async (req, res) => {
    res.json(await listPendingAndRejected(em(), PendingRejectedQuery.parse(req.query)));
  });

  router.get('/completed', async (req, res) => {
    res.json(await listCompletedBlocks(em(), CompletedBlocksQuery.parse(req.query), actorOf(req, res)));
  });

  router.post('/:blockId/close', noQuery, async (req, res) => {
    const blockId = idParam(req.params, 'blockId', blockIdRequired);
    const result = await closeBlock(em(), ctx.clock.now(), blockId, CloseBlockBody.parse(req.body ?? {}), actorOf(req, res));
    ctx.relay.nudge();
    res.json(result);
  });

  router.post(['/student-block/review', '/student-block//review'], adminOnly, () => {
    throw studentBlockIdRequired();
  });
  router.post('/student-block/:studentBlockId/review', adminOnly, noQuery, async (req, res) => {
    const studentBlockId = studentBlockIdOf(req);
    const body = req.body ?? {};
    if (!ReviewActionSchema.safeParse(body.action).success) throw invalidAction();
    const review = ReviewBody.parse(body);
    const result = await reviewBlock(em(), ctx.clock.now(), studentBlockId, { action: review.action, reason: review.reason ?? null }, actorOf(req, res));
    if (review.action === 'reject') req.log.info({ studentBlockId, reason: review.reason ?? null }, 'block rejected');
    ctx.relay.nudge();
    res.json(result);
  });

  router.get('/student-block/:studentBlockId/thread', noQuery, async (req, res) => {
    res.json(await readThread(em(), studentBlockIdOf(req), actorOf(req, res)));
  });
  router.post('/student-block/:studentBlockId/thread', noQuery, async (req, res) => {
    const studentBlockId = studentBlockIdOf(req);
    const { message } = ThreadMessageBody.parse(req.body ?? {});
    res.status(201).json(await addThreadMessage(em(), studentBlockId, message, actorOf(req, res)));
  });

  router.get('/grades/:studentId/:subjectId', noQuery, async (req, res) => {
    const studentId = idParam(req.params, 'studentId', studentIdRequired);
    const subjectId = idParam(req.params, 'subjectId', subjectIdRequired);
    res.json(await readBlockGrades(em(), studentId, subjectId, actorOf(req, res)));
  });

  app.use('/api/v2/blocks', router);
}
