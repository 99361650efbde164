import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Where attachment bytes live. The database holds the key; this holds the bytes. */
export interface FileStorage {
  /** Stores a stream under a new key and returns the key and the bytes written. */
  save(content: Readable): Promise<{ key: string; sizeBytes: number }>;
  open(key: string): Promise<Readable | null>;
  remove(key: string): Promise<void>;
}

const KEY = /^[0-9a-f-]{36}$/;

/** Files on local disk under `root`, fanned out by the key's first two characters. */
export function diskStorage(root: string): FileStorage {
  const pathOf = (key: string) => {
    if (!KEY.test(key)) throw new Error(`bad storage key ${key}`);
    return path.join(root, key.slice(0, 2), key);
  };
  return {
    async save(content) {
      const key = randomUUID();
      const file = pathOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      try {
        await pipeline(content, createWriteStream(file, { flags: 'wx' }));
      } catch (error) {
        await rm(file, { force: true });
        throw error;
      }
      return { key, sizeBytes: (await stat(file)).size };
    },
    async open(key) {
      const file = pathOf(key);
      try {
        await stat(file);
      } catch {
        return null;
      }
      return createReadStream(file);
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
