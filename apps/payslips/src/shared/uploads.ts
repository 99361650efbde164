import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { parseMultipart, removeFiles, type FileStorage } from '@academy/files';
import { fileRequired } from './errors.ts';

/** A PDF received and stored (encrypted), with what the use cases check before keeping it. */
export interface ReceivedPdf {
  storageKey: string;
  sizeBytes: number;
  sha256: string;
  /** The plaintext, for the PDF worker (bounded by the route's size limit). */
  bytes: Buffer;
}

/** Passes bytes through, hashing and keeping them. */
class Capture extends Transform {
  private readonly hash = createHash('sha256');
  private readonly chunks: Buffer[] = [];

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hash.update(chunk);
    this.chunks.push(chunk);
    callback(null, chunk);
  }

  result() {
    return { sha256: this.hash.digest('hex'), bytes: Buffer.concat(this.chunks) };
  }
}

/** `inner`, remembering each saved file's hash and bytes by its key. */
function capturingStorage(inner: FileStorage) {
  const captured = new Map<string, { sha256: string; bytes: Buffer }>();
  const storage: FileStorage = {
    async save(content) {
      const capture = new Capture();
      const saving = inner.save(capture).catch((error: unknown) => {
        capture.destroy(error as Error);
        throw error;
      });
      const [copy, save] = await Promise.allSettled([pipeline(content, capture), saving]);
      if (save.status === 'rejected') throw save.reason;
      if (copy.status === 'rejected') {
        await inner.remove(save.value.key).catch(() => undefined);
        throw copy.reason;
      }
      captured.set(save.value.key, capture.result());
      return save.value;
    },
    open: (key) => inner.open(key),
    remove: (key) => inner.remove(key),
  };
  return { storage, captured };
}

/**
 * Reads a multipart request of text fields (`schema`, the route's declared fields) and one PDF in
 * `file`, stored encrypted as it streams in and checked by its bytes (`@academy/files`). Any
 * problem removes what was stored. `idleTimeoutMs`: a body that stalls this long is 408 (below the gateway's timeout).
 */
export async function receivePdf<S extends z.ZodObject>(
  req: IncomingMessage,
  storage: FileStorage,
  schema: S,
  { maxBytes, idleTimeoutMs }: { maxBytes: number; idleTimeoutMs: number },
): Promise<{ fields: z.infer<S>; pdf: ReceivedPdf }> {
  const { storage: capturing, captured } = capturingStorage(storage);
  const parsed = await parseMultipart(req, capturing, {
    fields: Object.fromEntries(Object.keys(schema.shape).map((name) => [name, { maxBytes: 1024 }])),
    files: { field: 'file', maxCount: 1, maxBytes, types: ['application/pdf'] },
    idleTimeoutMs,
  });
  try {
    const fields = schema.parse(parsed.fields) as z.infer<S>;
    const file = parsed.files[0];
    if (!file) throw fileRequired();
    const { sha256, bytes } = captured.get(file.storageKey)!;
    return { fields, pdf: { storageKey: file.storageKey, sizeBytes: file.sizeBytes, sha256, bytes } };
  } catch (error) {
    await removeFiles(storage, parsed.files.map((file) => file.storageKey));
    throw error;
  }
}
