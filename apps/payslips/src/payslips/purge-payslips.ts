import { removeFiles } from '@academy/files';
import { addYears, dayIn } from '../shared/dates.ts';
import type { PayslipsContext } from '../shared/payslips-context.ts';
import { deleteHiddenEndedBefore } from './payslips.store.ts';

/**
 * Deleted and corrected payslips whose retention period (PAYSLIP_RETENTION_YEARS after the end
 * of their period) is over are removed, row (with its audit) and file. Answers how many.
 */
export async function purgePayslips(ctx: PayslipsContext, _input: Record<string, never>): Promise<number> {
  // Kept while period_end + years >= today, i.e. purged once period_end < today - years.
  const cutoff = addYears(dayIn(ctx.clock.now(), ctx.config.ACADEMY_TIME_ZONE), -ctx.config.PAYSLIP_RETENTION_YEARS);
  const storageKeys = await deleteHiddenEndedBefore(ctx.sql.query, cutoff);
  const failed = await removeFiles(ctx.storage, storageKeys);
  if (storageKeys.length) ctx.logger.info({ purged: storageKeys.length, filesNotRemoved: failed.length }, 'payslips past their retention purged');
  return storageKeys.length;
}
