import type { Request } from 'express';
import { PayslipReplaceFields, PayslipUploadFields, payslipsContract } from '@academy/contracts';
import { bytesOf } from '../config.ts';
import { implement, type PayslipsContext } from '../shared/payslips-context.ts';
import { requestSignal } from '../shared/request-signal.ts';
import { receivePdf } from '../shared/uploads.ts';
import { deletePayslip } from './delete-payslip.ts';
import { downloadPayslip } from './download-payslip.ts';
import { listMyPayslips } from './list-my-payslips.ts';
import { listPayslips } from './list-payslips.ts';
import { replacePayslip } from './replace-payslip.ts';
import { uploadPayslip } from './upload-payslip.ts';

const limits = (ctx: PayslipsContext) => ({ maxBytes: bytesOf(ctx.config.PAYSLIP_MAX_MB), idleTimeoutMs: ctx.config.UPLOAD_IDLE_TIMEOUT_MS });

/** Aborts when the request goes away before its answer (uploads keep nothing then). */
const signalOf = (req: Request) => requestSignal(req.res!);

/** `/api/v2/payslips/*` except batches: upload, lists, download, delete, correction. */
export const payslipRoutes = implement(payslipsContract, {
  upload: async ({ req }, ctx, actor) => {
    const signal = signalOf(req);
    const { fields, pdf } = await receivePdf(req, ctx.storage, PayslipUploadFields, limits(ctx));
    return { status: 201, body: { message: 'Payslip published', data: await uploadPayslip(ctx, { ...fields, pdf, signal }, actor) } };
  },

  list: async ({ query }, ctx, actor) => ({ status: 200, body: await listPayslips(ctx, query, actor) }),

  mine: async ({ query }, ctx, actor) => ({ status: 200, body: await listMyPayslips(ctx, query, actor) }),

  // The router pipes the decrypted file: a record that fails to decrypt midway ends the response
  // (the client sees it incomplete), never the process.
  download: async ({ params, req }, ctx, actor) => {
    const file = await downloadPayslip(ctx, { payslipId: params.id, sendsFile: req.method === 'GET' }, actor);
    return {
      status: 200,
      body: file.content,
      headers: {
        'content-type': 'application/pdf',
        'content-disposition': `attachment; filename="${file.fileName}"`,
        'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff',
      },
    };
  },

  delete: async ({ params, body }, ctx, actor) => ({ status: 200, body: { message: 'Payslip deleted', data: await deletePayslip(ctx, { payslipId: params.id, reason: body.reason }, actor) } }),

  replace: async ({ params, req }, ctx, actor) => {
    const signal = signalOf(req);
    const { fields, pdf } = await receivePdf(req, ctx.storage, PayslipReplaceFields, limits(ctx));
    return { status: 201, body: { message: 'Correction published', data: await replacePayslip(ctx, { ...fields, payslipId: params.id, pdf, signal }, actor) } };
  },
});
