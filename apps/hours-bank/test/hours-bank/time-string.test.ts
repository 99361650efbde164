import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import type { AppError } from '@academy/kit';
import { formatMinutes, MAX_HOURS, minutesToDecimal, parseTime } from '../../src/hours-bank/time-string.ts';

const codeOf = (raw: unknown) => {
  try {
    parseTime(raw);
    return 'OK';
  } catch (error) {
    return (error as AppError).code;
  }
};

describe('parseTime', () => {
  test.each([
    ['1h', 60],
    ['45m', 45],
    ['1h 30m', 90],
    ['1h30m', 90],
    ['1h   30m', 90],
    [' 2h ', 120],
    ['\t2h\n', 120],
    ['0h 30m', 30],
    ['1h 0m', 60],
    ['01h 05m', 65],
    ['59m', 59],
    ['999h 59m', 999 * 60 + 59],
  ])('%j is %i minutes', (text, minutes) => {
    expect(parseTime(text)).toBe(minutes);
  });

  test.each([
    // both sides of each edge
    ['59m', 'OK'],
    ['60m', 'INVALID_MINUTES'],
    ['1h 59m', 'OK'],
    ['1h 60m', 'INVALID_MINUTES'],
    ['1h60m', 'INVALID_MINUTES'],
    ['1m', 'OK'],
    ['0m', 'INVALID_HOURS'],
    ['0h', 'INVALID_HOURS'],
    ['0h 0m', 'INVALID_HOURS'],
    ['-1h', 'INVALID_HOURS'],
    ['-30m', 'INVALID_HOURS'],
    ['999h', 'OK'],
    [`${MAX_HOURS}h`, 'INVALID_HOURS'],
    ['99999h', 'INVALID_HOURS'],
    ['2h', 'OK'],
    ['2H', 'INVALID_TIME_FORMAT'],
    ['2M', 'INVALID_TIME_FORMAT'],
    ['1.5h', 'INVALID_TIME_FORMAT'],
    ['1,5h', 'INVALID_TIME_FORMAT'],
    ['h', 'INVALID_TIME_FORMAT'],
    ['m', 'INVALID_TIME_FORMAT'],
    ['1h 30', 'INVALID_TIME_FORMAT'],
    ['30m 1h', 'INVALID_TIME_FORMAT'],
    ['1h 1h', 'INVALID_TIME_FORMAT'],
    ['1 h', 'INVALID_TIME_FORMAT'],
    ['1h\t30m', 'INVALID_TIME_FORMAT'],
    ['90', 'INVALID_TIME_FORMAT'],
    ['abc', 'INVALID_TIME_FORMAT'],
    [`${'1'.repeat(31)}h`, 'INVALID_TIME_FORMAT'],
    ['x'.repeat(10_240), 'INVALID_TIME_FORMAT'],
    [90, 'INVALID_TIME_FORMAT'],
    [{}, 'INVALID_TIME_FORMAT'],
    ['', 'TIME_REQUIRED'],
    ['   ', 'TIME_REQUIRED'],
    [undefined, 'TIME_REQUIRED'],
    [null, 'TIME_REQUIRED'],
  ])('%j → %s', (raw, code) => {
    expect(codeOf(raw)).toBe(code);
  });

  test('any accepted time formats back to a string that parses to the same minutes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_HOURS * 60 - 1 }), (minutes) => {
        expect(parseTime(formatMinutes(minutes))).toBe(minutes);
      }),
    );
  });

  test('random strings never throw anything but a 400 of the grammar', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        expect(['OK', 'TIME_REQUIRED', 'INVALID_TIME_FORMAT', 'INVALID_MINUTES', 'INVALID_HOURS']).toContain(codeOf(text));
      }),
    );
  });
});

describe('formatMinutes and minutesToDecimal', () => {
  test.each([
    [0, '0h', 0],
    [59, '59m', 0.98],
    [60, '1h', 1],
    [90, '1h 30m', 1.5],
    [100, '1h 40m', 1.67],
    [10, '10m', 0.17],
    [-75, '-1h 15m', -1.25],
  ])('%i minutes is %s and %d', (minutes, text, decimal) => {
    expect(formatMinutes(minutes)).toBe(text);
    expect(minutesToDecimal(minutes)).toBe(decimal);
  });
});
