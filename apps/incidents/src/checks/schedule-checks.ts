import { inSpan } from '@academy/kit';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { runScheduledCheck } from './run-scheduled-check.ts';

/** Runs the check every `intervalMs` at the service's clock (never two runs of one instance at once); the returned stop waits for a run in flight. */
export function scheduleChecks(ctx: IncidentsContext, intervalMs: number): () => Promise<void> {
  if (intervalMs <= 0) return async () => undefined;
  let current: Promise<void> | null = null;
  const tick = () => {
    current ??= inSpan('scheduled check', { root: true }, () => runScheduledCheck(ctx, { now: ctx.clock.now() }))
      .then((result) => {
        if (result.openTooLong || result.absences || result.lateClockIns) ctx.logger.info(result, 'scheduled check created incidents');
      })
      .catch((error: unknown) => ctx.logger.warn({ err: error }, 'scheduled check failed; the next run retries'))
      .finally(() => {
        current = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  const first = setTimeout(tick, Math.min(intervalMs, 5_000));
  first.unref();
  return async () => {
    clearInterval(timer);
    clearTimeout(first);
    await current;
  };
}
