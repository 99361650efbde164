import { describe, expect, test } from '@jest/globals';
import { fixedClock, systemClock } from '../src/index.ts';

describe('clocks', () => {
  test('a fixed clock stays at its instant until set or advanced, and hands out copies', () => {
    const clock = fixedClock('2027-03-28T00:59:00Z');
    const first = clock.now();
    first.setUTCFullYear(2000);
    expect(clock.now().toISOString()).toBe('2027-03-28T00:59:00.000Z');
    clock.advance(60_000);
    expect(clock.now().toISOString()).toBe('2027-03-28T01:00:00.000Z');
    clock.set('2028-02-29T12:00:00Z');
    expect(clock.now().toISOString()).toBe('2028-02-29T12:00:00.000Z');
  });

  test('a fixed clock refuses what is not an instant', () => {
    expect(() => fixedClock('not a date')).toThrow(RangeError);
  });

  test('the system clock reads the machine clock', () => {
    const before = Date.now();
    const now = systemClock.now().getTime();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });
});
