import type { Express } from 'express';
import { actorOf } from '@academy/auth';
import { PayslipBatchFields, assignBatchPageRoute, createBatchRoute, discardBatchRoute, publishBatchRoute, showBatchRoute } from '@academy/contracts';
import { routeBinder } from '@academy/service';
import { bytesOf } from '../config.ts';
import type { PayslipsContext } from '../shared/payslips-context.ts';
import { requestSignal } from '../shared/request-signal.ts';
import { receivePdf } from '../shared/uploads.ts';
import { assignPage } from './assign-page.ts';
import { createBatch } from './create-batch.ts';
import { discardBatch } from './discard-batch.ts';
import { publishBatch } from './publish-batch.ts';
import { showBatch } from './show-batch.ts';

/** `/api/v2/payslips/batches/*` (admin): the month's combined PDF, from upload to publication. */
export function registerBatchRoutes(app: Express, ctx: PayslipsContext): void {
  const bind = routeBinder(app, ctx);

  bind(createBatchRoute, async ({ req, res }) => {
    const signal = requestSignal(res);
    const { fields, pdf } = await receivePdf(req, ctx.storage, PayslipBatchFields, { maxBytes: bytesOf(ctx.config.BATCH_MAX_MB), idleTimeoutMs: ctx.config.UPLOAD_IDLE_TIMEOUT_MS });
    const { batch, startReading } = await createBatch(ctx, actorOf(req, res), fields, pdf, signal);
    res.once('close', startReading);
    res.status(202).json({ message: 'Batch received: its pages are being read', data: batch });
  });

  bind(showBatchRoute, async ({ params, res }) => {
    res.json({ message: 'Batch', data: await showBatch(ctx, params.id) });
  });

  bind(assignBatchPageRoute, async ({ params, body, res }) => {
    res.json({ message: 'Page assigned', data: await assignPage(ctx, params.id, params.page, body.employeeId) });
  });

  bind(publishBatchRoute, async ({ params, req, res }) => {
    res.json({ message: 'Batch published', data: await publishBatch(ctx, actorOf(req, res), params.id) });
  });

  bind(discardBatchRoute, async ({ params, res }) => {
    res.json({ message: 'Batch discarded', data: await discardBatch(ctx, params.id) });
  });
}
