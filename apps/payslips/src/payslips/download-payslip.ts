import type { Readable } from 'node:stream';
import type { Actor } from '@academy/auth';
import type { PayslipsContext } from '../shared/payslips-context.ts';
import { payslipNotFound } from './payslips.errors.ts';
import { findDownloadable, markFirstViewed } from './payslips.store.ts';

export interface PayslipFile {
  fileName: string;
  content: Readable;
}

/**
 * The payslip's PDF, decrypted as it streams: its employee's own while visible, any for an admin
 * (deleted and corrected ones too). Anything else is 404, so another employee's id reveals
 * nothing. The first download by its employee sets `firstViewedAt`: only one that sends the file
 * (`sendsFile`: a GET; a HEAD answers the headers alone and is no receipt).
 */
export async function downloadPayslip(ctx: PayslipsContext, input: { payslipId: number; sendsFile: boolean }, actor: Actor): Promise<PayslipFile> {
  const payslip = await findDownloadable(ctx.sql.query, input.payslipId, { admin: actor.role === 'admin', employeeId: actor.employeeId });
  if (!payslip) throw payslipNotFound();
  const content = await ctx.storage.open(payslip.storageKey);
  if (!content) throw payslipNotFound();
  if (input.sendsFile && payslip.employeeId === actor.employeeId) await markFirstViewed(ctx.sql.query, input.payslipId, ctx.clock.now());
  return { fileName: `payslip-${payslip.month}-${input.payslipId}.pdf`, content };
}
