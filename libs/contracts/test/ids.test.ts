import { describe, expect, test } from '@jest/globals';
import { AssignStudentsBody, Id, IdText } from '../src/index.ts';

describe('one strict grammar for ids', () => {
  test('an id in a path or query is decimal digits without sign, leading zero or spaces, within range', () => {
    expect(IdText.parse('1')).toBe(1);
    expect(IdText.parse('2147483647')).toBe(2_147_483_647);
    for (const loose of ['0x1', '1e0', '+1', '01', ' 1', '1 ', '1.0', '-1', '0', '', 'abc', '2147483648', '99999999999999999999']) {
      expect({ loose, ok: IdText.safeParse(loose).success }).toEqual({ loose, ok: false });
    }
  });

  test('IdText.max bounds it lower with the same grammar', () => {
    const limit = IdText.max(100, { error: 'must be at most 100' });
    expect(limit.parse('100')).toBe(100);
    expect(limit.safeParse('101').error?.issues[0].message).toBe('must be at most 100');
    expect(limit.safeParse('0100').success).toBe(false);
  });

  test('an id in a JSON body is a JSON number, never a string', () => {
    expect(Id.safeParse('2').success).toBe(false);
    expect(Id.safeParse(2).success).toBe(true);
  });

  test('the assignment body’s employeeId, a number or a string, follows the same grammar', () => {
    const body = (employeeId: unknown) => AssignStudentsBody.safeParse({ eventId: 1, employeeId, idsStudents: [] });
    expect(body(3).data?.employeeId).toBe(3);
    expect(body('3').data?.employeeId).toBe(3);
    for (const loose of ['0x3', '03', '+3', ' 3', '3e0']) expect(body(loose).success).toBe(false);
  });
});
