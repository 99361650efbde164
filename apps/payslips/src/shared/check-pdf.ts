import type { AppError } from '@academy/kit';
import type { PdfProblem } from './pdf-pool.ts';
import type { PayslipsContext } from './payslips-context.ts';
import { pdfEncrypted, pdfUnreadable, scannedPdf, tooManyPages } from './errors.ts';

const problems: Record<PdfProblem, (maxPages: number) => AppError> = {
  PDF_ENCRYPTED: pdfEncrypted,
  PDF_UNREADABLE: pdfUnreadable,
  TOO_MANY_PAGES: tooManyPages,
  SCANNED_PDF: scannedPdf,
};

/** Opens the PDF in a worker: encrypted, unreadable, over the page limit or (for a batch) without text are 422. Answers its page count. */
export async function checkPdf(ctx: PayslipsContext, bytes: Buffer, options: { requireText: boolean }): Promise<number> {
  const maxPages = ctx.config.BATCH_MAX_PAGES;
  const inspection = await ctx.pdf.inspect({ pdf: bytes, maxPages, requireText: options.requireText });
  if (!inspection.ok) throw problems[inspection.problem](maxPages);
  return inspection.pageCount;
}
