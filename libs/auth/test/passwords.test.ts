import { describe, expect, test } from '@jest/globals';
import { hashPassword, verifyPassword } from '../src/index.ts';

describe('password hashing', () => {
  test('a password verifies against its own hash and not against another password', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^scrypt\$/);
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('wrong horse', hash)).toBe(false);
  });

  test('a malformed stored hash is a plain false', async () => {
    expect(await verifyPassword('x', 'not-a-hash')).toBe(false);
  });
});
