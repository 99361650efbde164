import type { AppError } from '@academy/kit';
import { PdfCheckAborted, PdfCheckTimedOut, type PdfProblem } from './pdf-pool.ts';
import type { PayslipsContext } from './payslips-context.ts';
import { pdfCheckTimedOut, pdfEncrypted, pdfUnreadable, requestGone, scannedPdf, tooManyPages, type PdfKind } from './errors.ts';

const problems: Record<PdfProblem, (maxPages: number, kind: PdfKind) => AppError> = {
  PDF_ENCRYPTED: pdfEncrypted,
  PDF_UNREADABLE: pdfUnreadable,
  TOO_MANY_PAGES: tooManyPages,
  SCANNED_PDF: scannedPdf,
};

/**
 * Opens the PDF in a worker: encrypted, unreadable, over the page limit or (for a combined PDF)
 * without text are 422; a check over its time limit (the workers busy) is 503, to try again. Given up
 * when `signal` aborts (the request went away). Answers its page count.
 */
export async function checkPdf(ctx: PayslipsContext, bytes: Buffer, kind: PdfKind, signal: AbortSignal): Promise<number> {
  const maxPages = ctx.config.BATCH_MAX_PAGES;
  const inspection = await ctx.pdf.inspect({ pdf: bytes, maxPages, requireText: kind === 'combined' }, signal).catch((error: unknown) => {
    throw error instanceof PdfCheckAborted ? requestGone() : error instanceof PdfCheckTimedOut ? pdfCheckTimedOut() : error;
  });
  if (!inspection.ok) throw problems[inspection.problem](maxPages, kind);
  return inspection.pageCount;
}

/** Nothing is kept for a request that went away (a client told 504 by the gateway must not find its upload published later). */
export function stillWanted(signal: AbortSignal): void {
  if (signal.aborted) throw requestGone();
}
