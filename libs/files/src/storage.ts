import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open as openFile, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { finished, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Where uploaded bytes live. The database holds the key; this holds the bytes. A wrapper (one that
 * encrypts, say) implements the same three calls around another `FileStorage`.
 */
export interface FileStorage {
  /** Stores a stream under a new key and returns the key and the bytes written. Rejects, having kept nothing, if the stream fails. */
  save(content: Readable): Promise<{ key: string; sizeBytes: number }>;
  /** The stored bytes, or null when the key holds nothing. */
  open(key: string): Promise<Readable | null>;
  /** Removes the bytes of a key; a key that holds nothing is not an error. */
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
      // Listened to at once, not only once the folder exists: an 'error' the source emits meanwhile
      // would otherwise end the process (issue 18). `pipeline` still sees it, as the stream's error.
      const stopWatching = finished(content, () => undefined);
      try {
        await mkdir(path.dirname(file), { recursive: true });
        await pipeline(content, createWriteStream(file, { flags: 'wx' }));
      } catch (error) {
        content.destroy();
        await rm(file, { force: true });
        throw error;
      } finally {
        stopWatching();
      }
      return { key, sizeBytes: (await stat(file)).size };
    },
    async open(key) {
      // Opened here, not by the stream on its first read: a file removed in between (a concurrent publish
      // removing the combined PDF it has just published) is then either null now or readable to its end,
      // never an ENOENT from a stream the caller already holds.
      let handle: FileHandle;
      try {
        handle = await openFile(pathOf(key), 'r');
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return null;
        throw error;
      }
      return handle.createReadStream();
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}

/**
 * Removes stored files and never rejects, for clean-up paths that already have an error to report.
 * Returns the keys it could not remove (to log), so an orphan is at least named.
 */
export async function removeFiles(storage: FileStorage, keys: readonly string[]): Promise<string[]> {
  const results = await Promise.allSettled(keys.map(async (key) => storage.remove(key)));
  return keys.filter((_key, index) => results[index]!.status === 'rejected');
}
