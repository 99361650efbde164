import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, test } from '@jest/globals';
import { encryptedStorage, FileDecryptionError, parseFileKeys, type FileKeys, type FileStorage } from '../src/index.ts';

/** A storage in memory, so the test can read and change the stored bytes. */
function memoryStorage() {
  const files = new Map<string, Buffer>();
  const storage: FileStorage = {
    async save(content) {
      const bytes = await buffer(content);
      const key = randomUUID();
      files.set(key, bytes);
      return { key, sizeBytes: bytes.length };
    },
    async open(key) {
      const bytes = files.get(key);
      // Small chunks, so records arrive split across reads.
      return bytes ? Readable.from(Array.from({ length: Math.ceil(bytes.length / 1000) }, (_, i) => bytes.subarray(i * 1000, (i + 1) * 1000))) : null;
    },
    async remove(key) {
      files.delete(key);
    },
  };
  return { storage, files };
}

const keysOf = (...pairs: [string, Buffer][]): FileKeys => ({ currentKeyId: pairs[0]![0], keys: new Map(pairs) });
const k1 = randomBytes(32);
const k2 = randomBytes(32);
const pdfLike = (size: number) => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(size - 9)]);
const read = async (storage: FileStorage, key: string) => buffer((await storage.open(key))!);

describe('encryptedStorage', () => {
  test.each([0, 1, 65_536, 65_537, 3 * 65_536, 300_000])('a file of %i bytes reads back as written, and its stored bytes are not the file', async (size) => {
    const { storage: inner, files } = memoryStorage();
    const storage = encryptedStorage(inner, keysOf(['k1', k1]));
    const content = size < 9 ? randomBytes(size) : pdfLike(size);
    const { key, sizeBytes } = await storage.save(Readable.from([content]));
    expect(sizeBytes).toBe(size);
    const stored = files.get(key)!;
    expect(stored.subarray(0, 5).toString('latin1')).not.toBe('%PDF-');
    if (size > 32) expect(stored.includes(content.subarray(9, 41))).toBe(false);
    expect((await read(storage, key)).equals(content)).toBe(true);
  });

  test('a wrong key fails loudly at open, before any byte is read', async () => {
    const { storage: inner } = memoryStorage();
    const { key } = await encryptedStorage(inner, keysOf(['k1', k1])).save(Readable.from([pdfLike(1000)]));
    await expect(encryptedStorage(inner, keysOf(['k1', k2])).open(key)).rejects.toThrow(FileDecryptionError);
  });

  test('a file naming a key that is not configured fails at open, naming the key id', async () => {
    const { storage: inner } = memoryStorage();
    const { key } = await encryptedStorage(inner, keysOf(['old', k1])).save(Readable.from([pdfLike(1000)]));
    await expect(encryptedStorage(inner, keysOf(['new', k2])).open(key)).rejects.toThrow(/key "old"/);
  });

  test('after a rotation new files take the current key and older files are read with the key they name', async () => {
    const { storage: inner, files } = memoryStorage();
    const before = pdfLike(5000);
    const { key: oldKey } = await encryptedStorage(inner, keysOf(['k1', k1])).save(Readable.from([before]));
    const rotated = encryptedStorage(inner, keysOf(['k2', k2], ['k1', k1]));
    const after = pdfLike(5000);
    const { key: newKey } = await rotated.save(Readable.from([after]));
    expect(files.get(newKey)!.subarray(5, 7).toString()).toBe('k2');
    expect((await read(rotated, oldKey)).equals(before)).toBe(true);
    expect((await read(rotated, newKey)).equals(after)).toBe(true);
  });

  test('a changed byte in the first record fails at open; in a later record the stream ends with the error', async () => {
    const { storage: inner, files } = memoryStorage();
    const storage = encryptedStorage(inner, keysOf(['k1', k1]));
    const { key } = await storage.save(Readable.from([pdfLike(200_000)]));
    const stored = files.get(key)!;
    files.set(key, Buffer.from(stored));
    files.get(key)![20] ^= 1;
    await expect(storage.open(key)).rejects.toThrow(FileDecryptionError);
    files.set(key, Buffer.from(stored));
    files.get(key)![150_000] ^= 1;
    await expect(read(storage, key)).rejects.toThrow(FileDecryptionError);
  });

  test('a truncated file (a whole last record cut off) fails', async () => {
    const { storage: inner, files } = memoryStorage();
    const storage = encryptedStorage(inner, keysOf(['k1', k1]));
    const { key } = await storage.save(Readable.from([pdfLike(3 * 65_536 + 10)]));
    const stored = files.get(key)!;
    files.set(key, stored.subarray(0, stored.length - 26));
    await expect(read(storage, key)).rejects.toThrow(FileDecryptionError);
  });

  test('a changed key id in the header fails even when that key exists', async () => {
    const { storage: inner, files } = memoryStorage();
    const { key } = await encryptedStorage(inner, keysOf(['k1', k1])).save(Readable.from([pdfLike(1000)]));
    files.get(key)![6] = '2'.charCodeAt(0);
    await expect(encryptedStorage(inner, keysOf(['k1', k1], ['k2', k1])).open(key)).rejects.toThrow(FileDecryptionError);
  });

  test('a plain file in the storage is refused as not encrypted', async () => {
    const { storage: inner } = memoryStorage();
    const { key } = await inner.save(Readable.from([pdfLike(1000)]));
    await expect(encryptedStorage(inner, keysOf(['k1', k1])).open(key)).rejects.toThrow(/not an encrypted file/);
  });

  test('a source stream that fails makes save fail', async () => {
    const { storage: inner } = memoryStorage();
    const failing = new Readable({ read() {
      this.destroy(new Error('client went away'));
    } });
    await expect(encryptedStorage(inner, keysOf(['k1', k1])).save(failing)).rejects.toThrow('client went away');
  });

  test('an unknown key answers null and remove is passed on', async () => {
    const { storage: inner, files } = memoryStorage();
    const storage = encryptedStorage(inner, keysOf(['k1', k1]));
    expect(await storage.open(randomUUID())).toBeNull();
    const { key } = await storage.save(Readable.from([pdfLike(100)]));
    await storage.remove(key);
    expect(files.has(key)).toBe(false);
  });
});

describe('parseFileKeys', () => {
  test('reads id:base64 pairs, the first being the current key', () => {
    const keys = parseFileKeys(` k2:${k2.toString('base64')}, k1:${k1.toString('base64')} `);
    expect(keys.currentKeyId).toBe('k2');
    expect(keys.keys.get('k1')!.equals(k1)).toBe(true);
  });

  test.each([
    ['', /at least one key/],
    ['k1', /"<id>:<base64/],
    [`bad id:${k1.toString('base64')}`, /"<id>:<base64/],
    [`k1:${randomBytes(16).toString('base64')}`, /32 bytes/],
    [`k1:${k1.toString('base64')},k1:${k2.toString('base64')}`, /twice/],
  ])('refuses %j', (text, message) => {
    expect(() => parseFileKeys(text)).toThrow(message);
  });
});
