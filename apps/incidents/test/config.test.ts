import { describe, expect, test } from '@jest/globals';
import { readConfig } from '../src/config.ts';

describe('configuration: the academy time zone and the absence rule', () => {
  test('ACADEMY_TIME_ZONE defaults to Europe/Madrid and ABSENCE_RULE to timetable', () => {
    expect(readConfig({})).toMatchObject({ ACADEMY_TIME_ZONE: 'Europe/Madrid', ABSENCE_RULE: 'timetable' });
  });

  test('WORK_TIME_ZONE, the former name, is read when ACADEMY_TIME_ZONE is unset, and ignored when it is set', () => {
    expect(readConfig({ WORK_TIME_ZONE: 'America/Bogota' }).ACADEMY_TIME_ZONE).toBe('America/Bogota');
    expect(readConfig({ WORK_TIME_ZONE: 'America/Bogota', ACADEMY_TIME_ZONE: 'Atlantic/Canary' }).ACADEMY_TIME_ZONE).toBe('Atlantic/Canary');
  });

  test('a zone that is not IANA, or another rule, stops the start naming the variable', () => {
    expect(() => readConfig({ ACADEMY_TIME_ZONE: 'Mars/Olympus' })).toThrow(/ACADEMY_TIME_ZONE is invalid/);
    expect(() => readConfig({ WORK_TIME_ZONE: 'Mars/Olympus' })).toThrow(/ACADEMY_TIME_ZONE is invalid/);
    expect(() => readConfig({ ABSENCE_RULE: 'sometimes' })).toThrow(/ABSENCE_RULE is invalid/);
    expect(readConfig({ ABSENCE_RULE: 'every-working-day' }).ABSENCE_RULE).toBe('every-working-day');
  });
});
