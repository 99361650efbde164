import { describe, expect, test } from '@jest/globals';
import { addDays, dayIn, daysBetween, formatMinutes, monthBounds } from '../../src/shared/time.ts';

describe('time helpers', () => {
  test('formatMinutes writes hours and minutes, zero as 0h', () => {
    expect(formatMinutes(0)).toBe('0h');
    expect(formatMinutes(45)).toBe('45m');
    expect(formatMinutes(120)).toBe('2h');
    expect(formatMinutes(750)).toBe('12h 30m');
  });

  test('dayIn gives the calendar day in the time zone (23:30 UTC is the next day in Madrid)', () => {
    expect(dayIn(new Date('2026-01-15T23:30:00Z'), 'UTC')).toBe('2026-01-15');
    expect(dayIn(new Date('2026-01-15T23:30:00Z'), 'Europe/Madrid')).toBe('2026-01-16');
  });

  test('day arithmetic crosses months and leap days', () => {
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(daysBetween('2026-01-01', '2026-01-31')).toBe(31);
    expect(monthBounds('2024-02')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(monthBounds('2026-12')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
  });
});
