import { pipeline } from 'node:stream/promises';
import { Router } from 'express';
import { requireRole } from '@academy/auth';
import { AdminPayslipsQuery, DeletePayslipBody, MyPayslipsQuery, PayslipReplaceFields, PayslipUploadFields } from '@academy/contracts';
import { idParam, noQuery } from '@academy/kit';
import { bytesOf } from '../config.ts';
import { actorOf, ownEmployee } from '../shared/actor.ts';
import type { Payslips } from '../shared/payslips-context.ts';
import { receivePdf } from '../shared/uploads.ts';
import { deletePayslip } from './delete-payslip.ts';
import { downloadPayslip } from './download-payslip.ts';
import { listMyPayslips, listPayslips } from './list-payslips.ts';
import { replacePayslip } from './replace-payslip.ts';
import { uploadPayslip } from './upload-payslip.ts';

const UPLOAD_FIELDS = ['employeeId', 'periodStart', 'periodEnd', 'issuedOn', 'label'] as const;
const REPLACE_FIELDS = ['periodStart', 'periodEnd', 'issuedOn', 'label'] as const;

/** `/api/v2/payslips/*` except batches: upload, lists, download, delete, correction. */
export function payslipsRouter(payslips: Payslips): Router {
  const router = Router();
  const adminOnly = requireRole('admin', { message: 'Only administrators may do this' });
  const maxBytes = bytesOf(payslips.config.PAYSLIP_MAX_MB);

  router.post('/', adminOnly, noQuery, async (req, res) => {
    const { fields, pdf } = await receivePdf(req, payslips.storage, PayslipUploadFields, UPLOAD_FIELDS, maxBytes);
    res.status(201).json({ message: 'Payslip published', data: await uploadPayslip(payslips, actorOf(req, res), fields, pdf) });
  });

  router.get('/', adminOnly, async (req, res) => {
    res.json(await listPayslips(payslips, AdminPayslipsQuery.parse(req.query)));
  });

  router.get('/my', async (req, res) => {
    const employeeId = ownEmployee(actorOf(req, res));
    res.json(await listMyPayslips(payslips, employeeId, MyPayslipsQuery.parse(req.query)));
  });

  router.get('/:id/file', noQuery, async (req, res) => {
    const file = await downloadPayslip(payslips, actorOf(req, res), idParam(req.params, 'id'));
    res.setHeader('content-type', 'application/pdf');
    res.setHeader('content-disposition', `attachment; filename="${file.fileName}"`);
    res.setHeader('cache-control', 'private, no-store');
    res.setHeader('x-content-type-options', 'nosniff');
    // A record that fails to decrypt midway ends the response (the client sees it incomplete), never the process;
    // a client that goes away midway is no error of ours.
    await pipeline(file.content, res).catch((error: unknown) => {
      const clientGone = (error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE';
      payslips.logger[clientGone ? 'debug' : 'error']({ err: error }, clientGone ? 'payslip download: the client went away' : 'payslip download failed midway');
    });
  });

  router.delete('/:id', adminOnly, noQuery, async (req, res) => {
    const payslipId = idParam(req.params, 'id');
    const { reason } = DeletePayslipBody.parse(req.body ?? {});
    res.json({ message: 'Payslip deleted', data: await deletePayslip(payslips, actorOf(req, res), payslipId, reason) });
  });

  router.post('/:id/replace', adminOnly, noQuery, async (req, res) => {
    const payslipId = idParam(req.params, 'id');
    const { fields, pdf } = await receivePdf(req, payslips.storage, PayslipReplaceFields, REPLACE_FIELDS, maxBytes);
    res.status(201).json({ message: 'Correction published', data: await replacePayslip(payslips, actorOf(req, res), payslipId, fields, pdf) });
  });

  return router;
}
