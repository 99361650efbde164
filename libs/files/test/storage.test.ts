import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, describe, expect, test } from '@jest/globals';
import { diskStorage, removeFiles, type FileStorage } from '../src/index.ts';
import { filesUnder } from './upload-server.ts';

describe('diskStorage', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'files-storage-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const storage = diskStorage(root);

  test('saves a stream under a new key, opens it again, and removes it', async () => {
    const { key, sizeBytes } = await storage.save(Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    expect(sizeBytes).toBe(11);
    expect(await text((await storage.open(key))!)).toBe('hello world');
    await storage.remove(key);
    expect(await storage.open(key)).toBeNull();
    await storage.remove(key);
  });

  test('a file removed right after it was opened is still read to its end (a concurrent publish removing the combined PDF another is about to read)', async () => {
    const { key } = await storage.save(Readable.from([Buffer.from('combined pdf')]));
    const opened = (await storage.open(key))!;
    for (const file of filesUnder(root)) rmSync(file); // synchronously, before the stream's first read
    expect(await text(opened)).toBe('combined pdf');
    expect(await storage.open(key)).toBeNull();
  });

  test('a source that fails while its folder is being made (issue 18: before anything listened) rejects the save and leaves no file', async () => {
    const source = new PassThrough();
    const saving = storage.save(source);
    source.destroy(new Error('Unexpected end of form'));
    await expect(saving).rejects.toThrow('Unexpected end of form');
    expect(filesUnder(root)).toEqual([]);
  });

  test('a source that fails mid-write rejects the save and leaves no file', async () => {
    const source = new PassThrough();
    const saving = storage.save(source);
    source.write(Buffer.alloc(64 * 1024));
    setTimeout(() => source.destroy(new Error('client gone')), 20);
    await expect(saving).rejects.toThrow('client gone');
    expect(filesUnder(root)).toEqual([]);
  });

  test('a key that is not one of its own is refused', async () => {
    await expect(storage.open('../../etc/passwd')).rejects.toThrow('bad storage key');
  });
});

describe('removeFiles', () => {
  test('removes what it can, never rejects, and names the keys it could not remove', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'files-remove-'));
    const disk = diskStorage(root);
    const { key } = await disk.save(Readable.from([Buffer.from('x')]));
    const failing: FileStorage = { ...disk, remove: (candidate) => (candidate === 'broken' ? Promise.reject(new Error('EIO')) : disk.remove(candidate)) };
    expect(await removeFiles(failing, [key, 'broken', 'not-a-key'])).toEqual(['broken', 'not-a-key']);
    expect(filesUnder(root)).toEqual([]);
    rmSync(root, { recursive: true, force: true });
  });
});
