import { privacyEntities } from '@academy/privacy';
import { replicaEntities } from '@academy/replicas';
import { PayslipBatch, PayslipBatchPage } from './batches/batches.entities.ts';
import { Payslip } from './payslips/payslips.entities.ts';

/** Every MikroORM entity of this service (the outbox and inbox come from @academy/messaging; employees are a replica). */
export const entities = [...replicaEntities, ...privacyEntities, Payslip, PayslipBatch, PayslipBatchPage];
