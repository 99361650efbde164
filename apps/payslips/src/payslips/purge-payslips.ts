import { removeFiles } from '@academy/files';
import { addYears, dayIn } from '../shared/dates.ts';
import type { Payslips } from '../shared/payslips-context.ts';

/**
 * Deleted and corrected payslips whose retention period (PAYSLIP_RETENTION_YEARS after the end
 * of their period) is over are removed, row (with its audit) and file. Answers how many.
 */
export async function purgePayslips(payslips: Payslips): Promise<number> {
  const { sql, storage, config, logger, now } = payslips;
  // Kept while period_end + years >= today, i.e. purged once period_end < today - years.
  const cutoff = addYears(dayIn(now(), config.ACADEMY_TIME_ZONE), -config.PAYSLIP_RETENTION_YEARS);
  const purged = await sql.query<{ storageKey: string }>(
    `delete from payslips where (deleted_at is not null or superseded_by_id is not null) and period_end < $1::date returning storage_key as "storageKey"`,
    [cutoff],
  );
  const failed = await removeFiles(storage, purged.map((row) => row.storageKey));
  if (purged.length) logger.info({ purged: purged.length, filesNotRemoved: failed.length }, 'payslips past their retention purged');
  return purged.length;
}
