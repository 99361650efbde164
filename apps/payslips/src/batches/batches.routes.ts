import type { Express } from 'express';
import { PayslipBatchFields, assignBatchPageRoute, createBatchRoute, discardBatchRoute, publishBatchRoute, showBatchRoute } from '@academy/contracts';
import { routeBinder, type ServiceContext } from '@academy/service';
import { bytesOf, type Config } from '../config.ts';
import { actorOf } from '../shared/actor.ts';
import type { Payslips } from '../shared/payslips-context.ts';
import { receivePdf } from '../shared/uploads.ts';
import { assignPage } from './assign-page.ts';
import { batchNotFound } from './batches.errors.ts';
import { showBatch } from './batches.store.ts';
import { createBatch } from './create-batch.ts';
import { discardBatch } from './discard-batch.ts';
import { publishBatch } from './publish-batch.ts';

/** `/api/v2/payslips/batches/*` (admin): the month's combined PDF, from upload to publication. */
export function batchesRoutes(app: Express, ctx: ServiceContext<Config>, payslips: Payslips): void {
  const bind = routeBinder(app, ctx);

  bind(createBatchRoute, async ({ req, res }) => {
    const { fields, pdf } = await receivePdf(req, payslips.storage, PayslipBatchFields, bytesOf(payslips.config.BATCH_MAX_MB));
    const { batch, startReading } = await createBatch(payslips, actorOf(req, res), fields, pdf);
    res.once('close', startReading);
    res.status(202).json({ message: 'Batch received: its pages are being read', data: batch });
  });

  bind(showBatchRoute, async ({ params, res }) => {
    const batch = await showBatch(payslips.sql.query, params.id);
    if (!batch) throw batchNotFound();
    res.json({ message: 'Batch', data: batch });
  });

  bind(assignBatchPageRoute, async ({ params, body, res }) => {
    res.json({ message: 'Page assigned', data: await assignPage(payslips, params.id, params.page, body.employeeId) });
  });

  bind(publishBatchRoute, async ({ params, req, res }) => {
    res.json({ message: 'Batch published', data: await publishBatch(payslips, actorOf(req, res), params.id) });
  });

  bind(discardBatchRoute, async ({ params, res }) => {
    res.json({ message: 'Batch discarded', data: await discardBatch(payslips, params.id) });
  });
}
