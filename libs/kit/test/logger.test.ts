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
