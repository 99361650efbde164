import { describe, expect, test } from '@jest/globals';
import { EmployeeCreateBody, demoTaxId, findSpanishTaxIds, isValidSpanishTaxId, normalizeTaxId } from '../src/index.ts';

describe('Spanish tax ids (DNI and NIE)', () => {
  test('a DNI is valid with its control letter (number mod 23) and invalid with any other', () => {
    expect(isValidSpanishTaxId('12345678Z')).toBe(true);
    expect(isValidSpanishTaxId('00000000T')).toBe(true);
    expect(isValidSpanishTaxId('99999999R')).toBe(true);
    const wrongLetters = 'TRWAGMYFPDXBNJSQVHLCKE'.split('');
    for (const letter of wrongLetters) expect({ letter, ok: isValidSpanishTaxId(`12345678${letter}`) }).toEqual({ letter, ok: false });
  });

  test('a NIE reads X, Y and Z as 0, 1 and 2 before the 7 digits', () => {
    expect(isValidSpanishTaxId('X1234567L')).toBe(true);
    expect(isValidSpanishTaxId('Y1234567X')).toBe(true);
    expect(isValidSpanishTaxId('Z1234567R')).toBe(true);
    expect(isValidSpanishTaxId('X1234567X')).toBe(false);
    expect(isValidSpanishTaxId('Y1234567L')).toBe(false);
  });

  test('other shapes are refused: too few or many digits, another prefix, no letter, a digit as letter', () => {
    for (const bad of ['', '1234567Z', '123456789Z', 'A1234567L', 'X12345678L', '12345678', '123456789', 'W1234567L', '12345678Ñ', 'X123456L', 'ZZ']) {
      expect({ bad, ok: isValidSpanishTaxId(bad) }).toEqual({ bad, ok: false });
    }
  });

  test('normalizing upper-cases and drops spaces, dots and hyphens; a valid id written loosely is valid', () => {
    expect(normalizeTaxId(' 12.345.678-z ')).toBe('12345678Z');
    expect(normalizeTaxId('x 1234567 l')).toBe('X1234567L');
    expect(isValidSpanishTaxId('12.345.678-z')).toBe(true);
  });

  test('the ids in a text are found normalized, each once, in order; wrong letters and longer numbers are not ids', () => {
    const page = 'NÓMINA  Trabajador: Ana Ruiz  NIF: 12.345.678-Z  NIE cónyuge x-1234567 l\nTel 912345678 Ref 123456789Z, 12345678A, 12345678Z again';
    expect(findSpanishTaxIds(page)).toEqual(['12345678Z', 'X1234567L']);
    expect(findSpanishTaxIds('no ids here')).toEqual([]);
  });

  test('demo ids are valid, distinct and stable (teacher N gets demoTaxId(N))', () => {
    expect(demoTaxId(1)).toBe('00000001R');
    const ids = Array.from({ length: 500 }, (_, n) => demoTaxId(n + 1));
    expect(ids.every(isValidSpanishTaxId)).toBe(true);
    expect(new Set(ids).size).toBe(500);
    expect(() => demoTaxId(-1)).toThrow(RangeError);
    expect(() => demoTaxId(1.5)).toThrow(RangeError);
  });

  test('the employee body stores the id normalized and refuses a wrong control letter with a message', () => {
    expect(EmployeeCreateBody.parse({ name: 'Ana', lastname: 'Ruiz', taxId: '12.345.678-z' }).taxId).toBe('12345678Z');
    const refused = EmployeeCreateBody.safeParse({ name: 'Ana', lastname: 'Ruiz', taxId: '12345678A' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({ path: ['taxId'], message: expect.stringContaining('control letter') });
    expect(EmployeeCreateBody.safeParse({ name: 'Ana', lastname: 'Ruiz', payrollCode: 'has space' }).success).toBe(false);
    expect(EmployeeCreateBody.parse({ name: 'Ana', lastname: 'Ruiz', payrollCode: 'EMP-0042' }).payrollCode).toBe('EMP-0042');
  });
});
