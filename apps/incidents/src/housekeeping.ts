import { inSpan } from '@academy/kit';
import { purgeKeptTimeRecords } from './privacy/purge-kept-time-records.ts';
import type { IncidentsContext } from './shared/incidents-context.ts';

/** Every HOUSEKEEPING_INTERVAL_MS (at the service's clock): the time records an erasure kept are deleted once their day has come. Answers a stop that waits for a run in flight. */
export function scheduleHousekeeping(ctx: IncidentsContext): () => Promise<void> {
  const interval = ctx.config.HOUSEKEEPING_INTERVAL_MS;
  if (interval === 0) return async () => undefined;
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    running ??= inSpan('incidents housekeeping', { root: true }, () => purgeKeptTimeRecords(ctx, { now: ctx.clock.now() }))
      .then((purged) => {
        if (purged.timeRecords) ctx.logger.info(purged, 'kept time records purged');
      })
      .catch((error: unknown) => ctx.logger.warn({ err: error }, 'incidents housekeeping failed; the next run retries'))
      .finally(() => {
        running = null;
      });
  }, interval);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
