import { inSpan } from '@academy/kit';
import { resumeInterruptedReads } from './batches/resume-interrupted-reads.ts';
import { purgePayslips } from './payslips/purge-payslips.ts';
import type { PayslipsContext } from './shared/payslips-context.ts';

/** Every HOUSEKEEPING_INTERVAL_MS: payslips past their retention are purged, interrupted batch reads resumed. Answers a stop function. */
export function scheduleHousekeeping(ctx: PayslipsContext): () => void {
  const interval = ctx.config.HOUSEKEEPING_INTERVAL_MS;
  if (interval === 0) return () => undefined;
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    running ??= inSpan('payslips housekeeping', { root: true }, () => Promise.all([purgePayslips(ctx, {}), resumeInterruptedReads(ctx, {})]))
      .catch((error: unknown) => ctx.logger.warn({ err: error }, 'payslips housekeeping failed'))
      .finally(() => (running = null));
  }, interval);
  timer.unref();
  return () => clearInterval(timer);
}
