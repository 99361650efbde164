import { resumeInterruptedReads } from './batches/read-batch.ts';
import { purgePayslips } from './payslips/purge-payslips.ts';
import type { Payslips } from './shared/payslips-context.ts';

/** Every HOUSEKEEPING_INTERVAL_MS: payslips past their retention are purged, interrupted batch reads resumed. Answers a stop function. */
export function scheduleHousekeeping(payslips: Payslips): () => void {
  const interval = payslips.config.HOUSEKEEPING_INTERVAL_MS;
  if (interval === 0) return () => undefined;
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    running ??= Promise.all([purgePayslips(payslips), resumeInterruptedReads(payslips)])
      .catch((error: unknown) => payslips.logger.warn({ err: error }, 'payslips housekeeping failed'))
      .finally(() => (running = null));
  }, interval);
  timer.unref();
  return () => clearInterval(timer);
}
