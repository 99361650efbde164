import { describe, expect, test } from '@jest/globals';
import { BlockGrade, CloseBlockBody, ReviewBody, ThreadMessageBody } from './blocks.ts';
import { IdText } from './common.ts';

describe('block contracts', () => {
  test('a student block id in a path (IdText) is plain digits: abc, 0, -3, 1.5, 1e3 and 2^31 are refused', () => {
    expect(IdText.parse('42')).toBe(42);
    for (const bad of ['abc', '0', '-3', '1.5', '1e3', '', ' 7', '007', '2147483648']) expect(IdText.safeParse(bad).success).toBe(false);
  });

  test('a grade is 0–10 with at most two decimals', () => {
    for (const good of [0, 10, 7.12, 9.99, 5.5, 0.01]) expect(BlockGrade.safeParse(good).success).toBe(true);
    for (const bad of [11, -1, 7.123, 10.01, Number.NaN, '7']) expect(BlockGrade.safeParse(bad).success).toBe(false);
  });

  test('close needs a student id; the grade may be absent or null; unknown fields are refused', () => {
    expect(CloseBlockBody.safeParse({ studentId: 3 }).success).toBe(true);
    expect(CloseBlockBody.safeParse({ studentId: 3, grade: null }).success).toBe(true);
    expect(CloseBlockBody.safeParse({ grade: 5 }).success).toBe(false);
    expect(CloseBlockBody.safeParse({ studentId: 3, extra: 1 }).success).toBe(false);
  });

  test('review actions are exactly approve and reject; thread messages are 1–5,000 characters', () => {
    expect(ReviewBody.safeParse({ action: 'approve' }).success).toBe(true);
    expect(ReviewBody.safeParse({ action: 'reject', reason: 'missing exercises' }).success).toBe(true);
    for (const action of ['APPROVE', 7, undefined]) expect(ReviewBody.safeParse({ action }).success).toBe(false);
    expect(ThreadMessageBody.safeParse({ message: 'x'.repeat(5000) }).success).toBe(true);
    expect(ThreadMessageBody.safeParse({ message: 'x'.repeat(5001) }).success).toBe(false);
    expect(ThreadMessageBody.safeParse({ message: '   ' }).success).toBe(false);
  });
});
