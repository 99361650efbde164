import { PayslipBatchFields, batchesContract } from '@academy/contracts';
import { bytesOf } from '../config.ts';
import { implement } from '../shared/payslips-context.ts';
import { requestSignal } from '../shared/request-signal.ts';
import { receivePdf } from '../shared/uploads.ts';
import { assignPage } from './assign-page.ts';
import { createBatch } from './create-batch.ts';
import { discardBatch } from './discard-batch.ts';
import { publishBatch } from './publish-batch.ts';
import { showBatch } from './show-batch.ts';

/** `/api/v2/payslips/batches/*` (admin): the month's combined PDF, from upload to publication. */
export const batchRoutes = implement(batchesContract, {
  // 202 at once; its pages are read once the answer is out (the response's close), not while the request's transaction holds.
  create: async ({ req }, ctx, actor) => {
    const res = req.res!;
    const signal = requestSignal(res);
    const { fields, pdf } = await receivePdf(req, ctx.storage, PayslipBatchFields, { maxBytes: bytesOf(ctx.config.BATCH_MAX_MB), idleTimeoutMs: ctx.config.UPLOAD_IDLE_TIMEOUT_MS });
    const { batch, startReading } = await createBatch(ctx, { ...fields, pdf, signal }, actor);
    res.once('close', startReading);
    return { status: 202, body: { message: 'Batch received: its pages are being read', data: batch } };
  },

  show: async ({ params }, ctx, actor) => ({ status: 200, body: { message: 'Batch', data: await showBatch(ctx, { batchId: params.id }, actor) } }),

  assignPage: async ({ params, body }, ctx, actor) => ({
    status: 200,
    body: { message: 'Page assigned', data: await assignPage(ctx, { batchId: params.id, page: params.page, employeeId: body.employeeId }, actor) },
  }),

  publish: async ({ params }, ctx, actor) => ({ status: 200, body: { message: 'Batch published', data: await publishBatch(ctx, { batchId: params.id }, actor) } }),

  discard: async ({ params }, ctx, actor) => ({ status: 200, body: { message: 'Batch discarded', data: await discardBatch(ctx, { batchId: params.id }, actor) } }),
});
