import { removeFiles } from '@academy/files';
import { addYears, dayIn } from '../shared/dates.ts';
import type { PayslipsContext } from '../shared/payslips-context.ts';
import { deleteHiddenEndedBefore } from './payslips.store.ts';

/**
 * Deleted and corrected payslips whose retention period (PAYSLIP_RETENTION_YEARS after the end
 * of their period) is over are removed, row (with its audit) and file. Answers how many.
 */
export async function purgePayslips(ctx: PayslipsContext): Promise<number> {
  const { sql, storage, config, logger, clock } = ctx;
  // Kept while period_end + years >= today, i.e. purged once period_end < today - years.
  const cutoff = addYears(dayIn(clock.now(), config.ACADEMY_TIME_ZONE), -config.PAYSLIP_RETENTION_YEARS);
  const storageKeys = await deleteHiddenEndedBefore(sql.query, cutoff);
  const failed = await removeFiles(storage, storageKeys);
  if (storageKeys.length) logger.info({ purged: storageKeys.length, filesNotRemoved: failed.length }, 'payslips past their retention purged');
  return storageKeys.length;
}
