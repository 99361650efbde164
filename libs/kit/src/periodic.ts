import { inSpan } from './telemetry.ts';

/**
 * Runs `work` every `intervalMs` (0 or less: never; tests call the work themselves), never two runs
 * of one process at once: a tick while a run is in flight is skipped. A failed run goes to
 * `onError` and the next tick retries. The returned stop clears the timer and waits for a run in
 * flight, so a service stops with its scheduled work finished. With a `name`, each run is the root
 * span of a trace of its own (what it writes and the events it records continue that trace).
 */
export function runEvery(intervalMs: number, work: () => Promise<unknown>, onError: (error: unknown) => void, name?: string): () => Promise<void> {
  if (intervalMs <= 0) return async () => {};
  let current: Promise<void> | null = null;
  const run = name ? () => inSpan(name, { root: true }, work) : work;
  const tick = () => {
    current ??= run()
      .then(() => undefined, onError)
      .finally(() => {
        current = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await current;
  };
}
