import { runEvery } from '@academy/kit';
import { purgeKeptTimeRecords } from './privacy/purge-kept-time-records.ts';
import type { IncidentsContext } from './shared/incidents-context.ts';

/** Every HOUSEKEEPING_INTERVAL_MS (at the service's clock; 0: off): the time records an erasure kept are deleted once their day has come. Answers a stop that waits for a run in flight. */
export function scheduleHousekeeping(ctx: IncidentsContext): () => Promise<void> {
  return runEvery(
    ctx.config.HOUSEKEEPING_INTERVAL_MS,
    async () => {
      const purged = await purgeKeptTimeRecords(ctx, { now: ctx.clock.now() });
      if (purged.timeRecords) ctx.logger.info(purged, 'kept time records purged');
    },
    (error) => ctx.logger.warn({ err: error }, 'incidents housekeeping failed; the next run retries'),
    'incidents housekeeping',
  );
}
