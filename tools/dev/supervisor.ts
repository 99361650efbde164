// A crashed process comes back. `npm start` and the system test harness run every long-lived process
// under a Supervisor: one that exits when nobody asked it to is started again after 1 s, then 2, 4,
// 8, 16, 30, 30… s while it keeps failing, and after 1 s again once it had stayed up a minute.
// stop() ends it for good: no restart is pending or will be scheduled. (Kubernetes restarts pods
// itself; this is the same promise on one machine.)
import { hasExited, stopChild, type LoggedChild } from './processes.ts';

export interface Backoff {
  firstMs: number;
  maxMs: number;
  /** A process that stayed up this long starts the schedule over. */
  resetAfterMs: number;
}

export const BACKOFF: Backoff = { firstMs: 1000, maxMs: 30_000, resetAfterMs: 60_000 };

/** The wait before the next start: the first wait, or twice the last one up to the maximum. */
export function nextDelay(lastDelayMs: number | null, upMs: number, backoff: Backoff = BACKOFF): number {
  if (lastDelayMs === null || upMs >= backoff.resetAfterMs) return backoff.firstMs;
  return Math.min(lastDelayMs * 2, backoff.maxMs);
}

/** Where a supervisor reads the time and how it waits; a test gives a fake one. */
export interface Timers {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface SupervisorOptions {
  /** Starts the process once (spawnService, spawnMailCatcher…). */
  spawn: () => LoggedChild;
  /** Told of each unexpected exit: `incidents exited (code 1); restarting in 1 s`, and the process that exited. */
  report: (line: string, exited: LoggedChild) => void;
  backoff?: Backoff;
  timers?: Timers;
}

export class Supervisor {
  #current: LoggedChild | null = null;
  #startedAt = 0;
  #lastDelayMs: number | null = null;
  #pending: unknown = null;
  #stopped = true;
  #exitedSinceStart = false;
  /** Starts after an unexpected exit. */
  restarts = 0;

  private readonly options: SupervisorOptions;

  constructor(options: SupervisorOptions) {
    this.options = options;
  }

  /** The process now running, or the last one. */
  get current(): LoggedChild | null {
    return this.#current;
  }

  get running(): boolean {
    return this.#current !== null && !hasExited(this.#current.child);
  }

  /** True when a process exited on its own since the last start(), even if it has been started again. */
  get exitedSinceStart(): boolean {
    return this.#exitedSinceStart;
  }

  get logFile(): string {
    if (!this.#current) throw new Error('not started yet');
    return this.#current.logFile;
  }

  /** Supervises from now on: starts the process unless it runs (a pending restart happens now). */
  start(): LoggedChild {
    this.#stopped = false;
    this.#exitedSinceStart = false;
    this.#lastDelayMs = null;
    this.#cancelPending();
    return this.running ? this.#current! : this.#spawn();
  }

  /** Stops it for good: `signal` (the process drains and closes), SIGKILL after `graceMs`; no restart. */
  async stop(graceMs = 15_000, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    this.#stopped = true;
    this.#cancelPending();
    if (this.#current) await stopChild(this.#current.child, graceMs, signal);
  }

  #spawn(): LoggedChild {
    const started = this.options.spawn();
    this.#current = started;
    this.#startedAt = this.#timers.now();
    let ended = false;
    const end = (how: string) => {
      if (ended) return;
      ended = true;
      this.#exited(started, how);
    };
    started.child.once('exit', (code, signal) => end(signal ? `signal ${signal}` : `code ${code}`));
    // A process that could not be spawned emits 'error' and may never emit 'exit'.
    started.child.on('error', (error) => {
      if (started.child.pid === undefined) end(error.message);
    });
    return started;
  }

  #exited(exited: LoggedChild, how: string): void {
    if (this.#stopped || this.#current !== exited) return;
    this.#exitedSinceStart = true;
    const delayMs = nextDelay(this.#lastDelayMs, this.#timers.now() - this.#startedAt, this.options.backoff);
    this.#lastDelayMs = delayMs;
    this.options.report(`${exited.name} exited (${how}); restarting in ${delayMs / 1000} s`, exited);
    this.#pending = this.#timers.setTimeout(() => {
      this.#pending = null;
      this.restarts += 1;
      this.#spawn();
    }, delayMs);
  }

  #cancelPending(): void {
    if (this.#pending === null) return;
    this.#timers.clearTimeout(this.#pending);
    this.#pending = null;
  }

  get #timers(): Timers {
    return this.options.timers ?? realTimers;
  }
}
