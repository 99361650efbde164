import { describe, expect, test } from '@jest/globals';
import { z } from 'zod';
import { fileKeysSetting } from '../src/index.ts';

const key = (byte: number) => Buffer.alloc(32, byte).toString('base64');

describe('fileKeysSetting: the keys of files encrypted at rest, as a configuration entry', () => {
  const schema = z.object({ KEYS: fileKeysSetting(`dev-1:${key(1)}`) });

  test('no value: the fallback, parsed; the first listed key encrypts', () => {
    expect(schema.parse({}).KEYS.currentKeyId).toBe('dev-1');
    const rotated = schema.parse({ KEYS: `new:${key(2)}, old:${key(3)}` }).KEYS;
    expect(rotated.currentKeyId).toBe('new');
    expect([...rotated.keys.keys()]).toEqual(['new', 'old']);
    expect(rotated.keys.get('old')).toEqual(Buffer.alloc(32, 3));
  });

  test('a malformed value is an issue of that entry naming what is wrong, never a parsed key', () => {
    for (const [value, message] of [
      ['nokey', /must be "<id>:<base64 of 32 bytes>"/],
      [`short:${Buffer.alloc(16).toString('base64')}`, /key "short" must be 32 bytes/],
      [`a:${key(1)},a:${key(2)}`, /key "a" is given twice/],
      [' , ', /at least one key is required/],
    ] as const) {
      const result = schema.safeParse({ KEYS: value });
      expect(result.success).toBe(false);
      expect(result.error!.issues).toEqual([expect.objectContaining({ path: ['KEYS'], message: expect.stringMatching(message) })]);
    }
  });
});
