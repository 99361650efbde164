import { runEvery } from '@academy/kit';
import type { AcademicContext } from '../shared/academic-context.ts';
import { deleteExpiredAcademicRecords } from './kept-records.store.ts';

/**
 * The academic records an erasure kept are deleted on the day its outcome listed as `until`
 * (ACADEMIC_RECORDS_RETENTION_YEARS after the erasure). The schedule is its caller, no person: `(ctx, input)`.
 */
export async function purgeKeptAcademicRecords(ctx: AcademicContext, input: { now: Date }) {
  return ctx.orm.em.fork().transactional((em) => deleteExpiredAcademicRecords(em, input.now, ctx.config.ACADEMIC_RECORDS_RETENTION_YEARS));
}

/** Every KEPT_RECORDS_CHECK_INTERVAL_MS at the service's clock (0: off); answers a stop that waits for a run in flight. */
export function startKeptRecordsPurge(ctx: AcademicContext): () => Promise<void> {
  return runEvery(
    ctx.config.KEPT_RECORDS_CHECK_INTERVAL_MS,
    async () => {
      const purged = await purgeKeptAcademicRecords(ctx, { now: ctx.clock.now() });
      if (purged.students) ctx.logger.info(purged, 'kept academic records purged');
    },
    (error) => ctx.logger.warn({ err: error }, 'purge of kept academic records failed; the next run retries'),
    'purge kept academic records',
  );
}
