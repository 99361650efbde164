import { ConflictError, NotFoundError } from '@academy/kit';

export const payslipNotFound = () => new NotFoundError('PAYSLIP_NOT_FOUND', 'Payslip not found');
export const payslipDeleted = () => new ConflictError('PAYSLIP_DELETED', 'The payslip was deleted');
export const payslipSuperseded = () => new ConflictError('PAYSLIP_SUPERSEDED', 'The payslip was corrected: act on its correction');
