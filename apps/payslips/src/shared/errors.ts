import { AppError, ConflictError, ForbiddenError, NotFoundError } from '@academy/kit';

export const notAnEmployee = () => new ForbiddenError('Only employees have payslips of their own', 'NOT_AN_EMPLOYEE');
export const employeeNotFound = () => new NotFoundError('EMPLOYEE_NOT_FOUND', 'Employee not found');
export const employeeInactive = () => new ConflictError('EMPLOYEE_INACTIVE', 'The employee is deactivated: no new payslips for them');
export const duplicatePayslip = () => new ConflictError('DUPLICATE_PAYSLIP', 'This file is already a payslip of this employee');

// The file
/** One payslip's PDF, or a month's combined PDF. */
export type PdfKind = 'payslip' | 'combined';
/** Nobody reads this answer (its client is gone: the gateway gave up, or the client closed): what matters is that nothing was kept. */
export const requestGone = () => new AppError(499, 'CLIENT_CLOSED_REQUEST', 'The request was closed before its upload was kept');
export const fileRequired = () => new AppError(400, 'FILE_REQUIRED', 'Send the PDF in the "file" field');
export const pdfEncrypted = () => new AppError(422, 'PDF_ENCRYPTED', 'Encrypted (password-protected) PDFs are not accepted: export it without protection');
export const pdfUnreadable = () => new AppError(422, 'PDF_UNREADABLE', 'The PDF could not be read');
export const tooManyPages = (max: number, what: PdfKind) =>
  new AppError(422, 'TOO_MANY_PAGES', what === 'combined' ? `A combined PDF may have at most ${max} pages` : `A payslip's PDF may have at most ${max} pages`);
export const pdfCheckTimedOut = () =>
  new AppError(503, 'PDF_CHECK_TIMEOUT', 'The PDF could not be checked in time (the service is busy): try again in a moment', { headers: { 'retry-after': '5' } });
export const scannedPdf = () => new AppError(422, 'SCANNED_PDF', 'Scanned PDFs cannot be matched: the PDF has no text layer');
