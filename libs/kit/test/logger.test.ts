import { describe, expect, test } from '@jest/globals';
import { createLogger } from '../src/index.ts';

/** A logger whose lines are collected, parsed. */
function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger('test', 'info', { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe('log redaction', () => {
  test('a tax id is redacted at the top level and up to three objects deep', () => {
    const { logger, lines } = capturedLogger();
    logger.info({ taxId: '12345678Z' }, 'top');
    logger.info({ employee: { taxId: '12345678Z' } }, 'one deep');
    logger.info({ event: { data: { taxId: 'X1234567L' } } }, 'two deep');
    logger.info({ err: { body: { employee: { taxId: 'X1234567L' } } } }, 'three deep');
    expect(lines.map((line) => line.msg)).toEqual(['top', 'one deep', 'two deep', 'three deep']);
    const written = JSON.stringify(lines);
    expect(written).not.toContain('12345678Z');
    expect(written).not.toContain('X1234567L');
    expect(lines[2]).toMatchObject({ event: { data: { taxId: '[redacted]' } } });
  });

  test('passwords and the authorization header are redacted too, other fields kept', () => {
    const { logger, lines } = capturedLogger();
    logger.info({ req: { headers: { authorization: 'Bearer secret', host: 'h' } }, body: { password: 'p4ssw0rd', email: 'a@b.c' } }, 'request');
    expect(lines[0]).toMatchObject({ req: { headers: { authorization: '[redacted]', host: 'h' } }, body: { password: '[redacted]', email: 'a@b.c' } });
  });
});

describe('redaction of the fields a service declares personal', () => {
  const declared = ['email', 'clockIn', 'fullName', 'text'];
  function loggerOf(redact: readonly string[]) {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger('test', 'info', { write: (line: string) => void lines.push(JSON.parse(line)) }, { redact });
    return { logger, lines };
  }

  test('each declared field is printed redacted at the top level and up to three objects deep; undeclared fields are kept', () => {
    const { logger, lines } = loggerOf(declared);
    logger.info({ email: 'ana@example.com', employeeId: 7 }, 'top');
    logger.info({ event: { data: { clockIn: '2026-03-10T08:00:00Z', employee: { fullName: 'Ana Ruiz' } } } }, 'deep');
    logger.info({ a: { b: { c: { text: 'my private note' } } } }, 'three deep');
    expect(lines[0]).toMatchObject({ email: '[redacted]', employeeId: 7 });
    expect(lines[1]).toMatchObject({ event: { data: { clockIn: '[redacted]', employee: { fullName: '[redacted]' } } } });
    expect(lines[2]).toMatchObject({ a: { b: { c: { text: '[redacted]' } } } });
    const written = JSON.stringify(lines);
    for (const secret of ['ana@example.com', '08:00', 'Ana Ruiz', 'my private note']) expect(written).not.toContain(secret);
  });

  test('a declared name that is not a field name is refused, not silently ignored', () => {
    expect(() => loggerOf(['bad-name'])).toThrow(/bad-name/);
  });
});
