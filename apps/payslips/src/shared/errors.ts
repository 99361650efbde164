import { AppError, ConflictError, ForbiddenError, NotFoundError } from '@academy/kit';

export const notAnEmployee = () => new ForbiddenError('Only employees have payslips of their own', 'NOT_AN_EMPLOYEE');
export const employeeNotFound = () => new NotFoundError('EMPLOYEE_NOT_FOUND', 'Employee not found');
export const employeeInactive = () => new ConflictError('EMPLOYEE_INACTIVE', 'The employee is deactivated: no new payslips for them');
export const duplicatePayslip = () => new ConflictError('DUPLICATE_PAYSLIP', 'This file is already a payslip of this employee');

// The file
export const fileRequired = () => new AppError(400, 'FILE_REQUIRED', 'Send the PDF in the "file" field');
export const pdfEncrypted = () => new AppError(422, 'PDF_ENCRYPTED', 'Encrypted (password-protected) PDFs are not accepted: export it without protection');
export const pdfUnreadable = () => new AppError(422, 'PDF_UNREADABLE', 'The PDF could not be read');
export const tooManyPages = (max: number) => new AppError(422, 'TOO_MANY_PAGES', `A combined PDF may have at most ${max} pages`);
export const scannedPdf = () => new AppError(422, 'SCANNED_PDF', 'Scanned PDFs cannot be matched: the PDF has no text layer');
