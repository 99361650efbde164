import { describe, expect, test } from '@jest/globals';
import { ZodError } from 'zod';
import { BadRequestError, idParam, readId } from '../src/index.ts';

describe('path ids', () => {
  test.each(['1', '42', '2147483647'])('readId reads %s', (text) => {
    expect(readId(text)).toBe(Number(text));
  });

  test.each(['0', '-1', '+1', '01', '1.5', '1e3', '0x1', ' 1', 'abc', '', '2147483648', undefined, 7])('readId refuses %p', (value) => {
    expect(readId(value)).toBeUndefined();
  });

  test('idParam returns the id, or throws a ZodError naming the parameter', () => {
    expect(idParam({ employeeId: '7' }, 'employeeId')).toBe(7);
    expect(() => idParam({ employeeId: '007' }, 'employeeId')).toThrow(ZodError);
    expect(() => idParam({}, 'employeeId')).toThrow(expect.objectContaining({ issues: [expect.objectContaining({ path: ['employeeId'] })] }));
  });

  test('idParam throws the error the route family fixes, with what was wrong as details', () => {
    const required = (details?: unknown) => new BadRequestError('EMPLOYEE_ID_REQUIRED', 'Employee ID is required', details);
    expect(() => idParam({ employeeId: 'abc' }, 'employeeId', required)).toThrow(expect.objectContaining({ code: 'EMPLOYEE_ID_REQUIRED', status: 400, details: [expect.any(String)] }));
    expect(idParam({ employeeId: '12' }, 'employeeId', required)).toBe(12);
  });
});
