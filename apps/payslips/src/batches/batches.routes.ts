import { Router } from 'express';
import { requireRole } from '@academy/auth';
import { AssignPageBody, BatchPageParams, PayslipBatchFields } from '@academy/contracts';
import { idParam, noQuery } from '@academy/kit';
import { bytesOf } from '../config.ts';
import { actorOf } from '../shared/actor.ts';
import type { Payslips } from '../shared/payslips-context.ts';
import { receivePdf } from '../shared/uploads.ts';
import { assignPage } from './assign-page.ts';
import { batchNotFound } from './batches.errors.ts';
import { showBatch } from './batches.store.ts';
import { createBatch } from './create-batch.ts';
import { discardBatch } from './discard-batch.ts';
import { publishBatch } from './publish-batch.ts';

const BATCH_FIELDS = ['periodStart', 'periodEnd', 'issuedOn', 'label', 'matchBy'] as const;

/** `/api/v2/payslips/batches/*` (admin): the month's combined PDF, from upload to publication. */
export function batchesRouter(payslips: Payslips): Router {
  const router = Router();
  router.use(requireRole('admin', { message: 'Only administrators may do this' }), noQuery);

  router.post('/', async (req, res) => {
    const { fields, pdf } = await receivePdf(req, payslips.storage, PayslipBatchFields, BATCH_FIELDS, bytesOf(payslips.config.BATCH_MAX_MB));
    const { batch, startReading } = await createBatch(payslips, actorOf(req, res), fields, pdf);
    res.once('close', startReading);
    res.status(202).json({ message: 'Batch received: its pages are being read', data: batch });
  });

  router.get('/:id', async (req, res) => {
    const batch = await showBatch(payslips.sql.query, idParam(req.params, 'id'));
    if (!batch) throw batchNotFound();
    res.json({ message: 'Batch', data: batch });
  });

  router.post('/:id/pages/:page/assign', async (req, res) => {
    const { id, page } = BatchPageParams.parse(req.params);
    const { employeeId } = AssignPageBody.parse(req.body ?? {});
    res.json({ message: 'Page assigned', data: await assignPage(payslips, id, page, employeeId) });
  });

  router.post('/:id/publish', async (req, res) => {
    res.json({ message: 'Batch published', data: await publishBatch(payslips, actorOf(req, res), idParam(req.params, 'id')) });
  });

  router.delete('/:id', async (req, res) => {
    res.json({ message: 'Batch discarded', data: await discardBatch(payslips, idParam(req.params, 'id')) });
  });

  return router;
}
