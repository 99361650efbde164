/**
 * "Now", given to the code rather than read: every rule that depends on the date or the hour asks its
 * service's clock (`ctx.clock`), so a test pins the instant and passes at any hour of any day.
 */
export interface Clock {
  now(): Date;
}

/** The machine's clock: the one every running service is given. */
export const systemClock: Clock = { now: () => new Date() };

/** A clock for tests: stays at `instant` until set or advanced. */
export interface SettableClock extends Clock {
  set(instant: Date | string): void;
  advance(ms: number): void;
}

/**
 * A clock for tests that starts at `instant` and runs at the real pace (elapsed time from the monotonic clock):
 * the date is pinned, and what happens later in a test is later.
 */
export function clockFrom(instant: Date | string): Clock {
  const start = new Date(instant).getTime();
  if (Number.isNaN(start)) throw new RangeError(`clockFrom: not an instant: ${String(instant)}`);
  const origin = performance.now();
  return { now: () => new Date(start + Math.floor(performance.now() - origin)) };
}

export function fixedClock(instant: Date | string): SettableClock {
  let current = new Date(instant);
  if (Number.isNaN(current.getTime())) throw new RangeError(`fixedClock: not an instant: ${String(instant)}`);
  return {
    now: () => new Date(current),
    set: (next) => {
      current = new Date(next);
    },
    advance: (ms) => {
      current = new Date(current.getTime() + ms);
    },
  };
}
