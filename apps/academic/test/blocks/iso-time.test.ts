import { describe, expect, test } from '@jest/globals';
import { isoFromMillis } from '../../src/blocks/iso-time.ts';

describe('isoFromMillis (the pending listing close times)', () => {
  test('writes every instant as toISOString does: 1970, leap days, century years, the last four-digit year, and random ones', () => {
    const day = 86_400_000;
    const instants = [
      0,
      1,
      999,
      day - 1,
      Date.UTC(2000, 1, 29, 23, 59, 59, 999),
      Date.UTC(2000, 2, 1),
      Date.UTC(2100, 1, 28, 12),
      Date.UTC(2100, 2, 1),
      Date.UTC(2024, 11, 31, 23, 59, 59, 999),
      Date.UTC(2025, 0, 1),
      Date.UTC(2026, 10, 28, 17, 3, 4, 5),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
    ];
    // Every day of 1970–2100 at a moment of its own, and random instants up to 9999.
    for (let t = 0; t < Date.UTC(2101, 0, 1); t += day) instants.push(t + ((t / day) * 7_919_111) % day);
    for (let i = 0; i < 20_000; i++) instants.push(Math.floor(Math.random() * 253_402_300_800_000));
    const differing = instants.filter((ms) => isoFromMillis(ms) !== new Date(ms).toISOString());
    expect(differing).toEqual([]);
    expect(isoFromMillis(Date.UTC(2026, 10, 28, 17, 3, 4, 5))).toBe('2026-11-28T17:03:04.005Z');
  });

  test('outside 1970–9999 it is toISOString itself (a six-digit year, before 1970)', () => {
    for (const ms of [-1, -86_400_001, Date.UTC(1969, 11, 31, 23, 59, 59, 999), 253_402_300_800_000, Date.UTC(12_345, 0, 1)]) expect(isoFromMillis(ms)).toBe(new Date(ms).toISOString());
    expect(() => isoFromMillis(Number.NaN)).toThrow(RangeError);
  });
});
