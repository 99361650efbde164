import { pipeline } from 'node:stream/promises';
import type { Express } from 'express';
import { actorOf } from '@academy/auth';
import { PayslipReplaceFields, PayslipUploadFields, deletePayslipRoute, downloadPayslipRoute, listPayslipsRoute, myPayslipsRoute, replacePayslipRoute, uploadPayslipRoute } from '@academy/contracts';
import { routeBinder } from '@academy/service';
import { bytesOf } from '../config.ts';
import { ownEmployee } from '../shared/actor.ts';
import type { PayslipsContext } from '../shared/payslips-context.ts';
import { requestSignal } from '../shared/request-signal.ts';
import { receivePdf } from '../shared/uploads.ts';
import { deletePayslip } from './delete-payslip.ts';
import { downloadPayslip } from './download-payslip.ts';
import { listMyPayslips } from './list-my-payslips.ts';
import { listPayslips } from './list-payslips.ts';
import { replacePayslip } from './replace-payslip.ts';
import { uploadPayslip } from './upload-payslip.ts';

/** `/api/v2/payslips/*` except batches: upload, lists, download, delete, correction. */
export function registerPayslipRoutes(app: Express, ctx: PayslipsContext): void {
  const bind = routeBinder(app, ctx);
  const limits = { maxBytes: bytesOf(ctx.config.PAYSLIP_MAX_MB), idleTimeoutMs: ctx.config.UPLOAD_IDLE_TIMEOUT_MS };

  bind(uploadPayslipRoute, async ({ req, res }) => {
    const signal = requestSignal(res);
    const { fields, pdf } = await receivePdf(req, ctx.storage, PayslipUploadFields, limits);
    res.status(201).json({ message: 'Payslip published', data: await uploadPayslip(ctx, actorOf(req, res), fields, pdf, signal) });
  });

  bind(listPayslipsRoute, async ({ query, res }) => {
    res.json(await listPayslips(ctx, query));
  });

  bind(myPayslipsRoute, async ({ query, req, res }) => {
    res.json(await listMyPayslips(ctx, ownEmployee(actorOf(req, res)), query));
  });

  bind(downloadPayslipRoute, async ({ params, req, res }) => {
    const file = await downloadPayslip(ctx, actorOf(req, res), params.id, { sendsFile: req.method === 'GET' });
    res.setHeader('content-type', 'application/pdf');
    res.setHeader('content-disposition', `attachment; filename="${file.fileName}"`);
    res.setHeader('cache-control', 'private, no-store');
    res.setHeader('x-content-type-options', 'nosniff');
    // A record that fails to decrypt midway ends the response (the client sees it incomplete), never the process;
    // a client that goes away midway is no error of ours.
    await pipeline(file.content, res).catch((error: unknown) => {
      const clientGone = (error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE';
      ctx.logger[clientGone ? 'debug' : 'error']({ err: error }, clientGone ? 'payslip download: the client went away' : 'payslip download failed midway');
    });
  });

  bind(deletePayslipRoute, async ({ params, body, req, res }) => {
    res.json({ message: 'Payslip deleted', data: await deletePayslip(ctx, actorOf(req, res), params.id, body.reason) });
  });

  bind(replacePayslipRoute, async ({ params, req, res }) => {
    const signal = requestSignal(res);
    const { fields, pdf } = await receivePdf(req, ctx.storage, PayslipReplaceFields, limits);
    res.status(201).json({ message: 'Correction published', data: await replacePayslip(ctx, actorOf(req, res), params.id, fields, pdf, signal) });
  });
}
