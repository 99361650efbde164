import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FileStorage } from './index.ts';

/**
 * Encryption at rest for any `FileStorage`: AES-256-GCM in records of 64 KiB (the STREAM
 * construction), so a file is encrypted and decrypted as it streams, and every record is
 * authenticated before a byte of it is released.
 *
 *   header  = "AFE1" | key id length (1 byte) | key id (UTF-8) | nonce prefix (7 random bytes)
 *   record  = AES-256-GCM(plaintext ≤ 64 KiB) | tag (16 bytes)
 *   nonce   = nonce prefix | record counter (uint32 BE) | 1 on the last record, else 0
 *
 * The header is the additional data of every record (a changed key id fails); the last-record
 * flag makes a truncated or extended file fail; the counter makes reordered records fail. The key
 * id in the header names the key that wrote the file, so keys can rotate: new files take the
 * current key, older ones are read with the key they name for as long as it is configured.
 */
export interface FileKeys {
  /** Id of the key new files are encrypted with; must be in `keys`. */
  currentKeyId: string;
  /** Every key a stored file may name: id → 32 bytes. */
  keys: ReadonlyMap<string, Buffer>;
}

const MAGIC = Buffer.from('AFE1', 'latin1');
const RECORD_BYTES = 64 * 1024;
const TAG_BYTES = 16;
const PREFIX_BYTES = 7;
const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** A stored file that cannot be read back as it was written: wrong or unknown key, tampered, truncated, or not ours. */
export class FileDecryptionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FileDecryptionError';
  }
}

/**
 * Reads `id:base64key` pairs separated by commas (the first is the current key), the format of the
 * key variable a service's configuration and its Kubernetes Secret hold.
 */
export function parseFileKeys(text: string): FileKeys {
  const keys = new Map<string, Buffer>();
  let currentKeyId: string | undefined;
  for (const entry of text.split(',').map((part) => part.trim()).filter(Boolean)) {
    const separator = entry.indexOf(':');
    const id = entry.slice(0, separator);
    const key = Buffer.from(entry.slice(separator + 1), 'base64');
    if (separator < 1 || !KEY_ID.test(id)) throw new Error('each key must be "<id>:<base64 of 32 bytes>", the id of letters, digits, ".", "_" or "-"');
    if (key.length !== 32) throw new Error(`key "${id}" must be 32 bytes (base64 of 32 random bytes)`);
    if (keys.has(id)) throw new Error(`key "${id}" is given twice`);
    keys.set(id, key);
    currentKeyId ??= id;
  }
  if (!currentKeyId) throw new Error('at least one key is required');
  return { currentKeyId, keys };
}

function nonceOf(prefix: Buffer, counter: number, last: boolean): Buffer {
  const nonce = Buffer.alloc(12);
  prefix.copy(nonce, 0);
  nonce.writeUInt32BE(counter, PREFIX_BYTES);
  nonce[11] = last ? 1 : 0;
  return nonce;
}

function sealRecord(key: Buffer, header: Buffer, prefix: Buffer, counter: number, plaintext: Buffer, last: boolean): Buffer {
  const cipher = createCipheriv('aes-256-gcm', key, nonceOf(prefix, counter, last));
  cipher.setAAD(header);
  return Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
}

function openRecord(key: Buffer, header: Buffer, prefix: Buffer, counter: number, sealed: Buffer, last: boolean): Buffer {
  if (sealed.length < TAG_BYTES) throw new FileDecryptionError('the stored file is truncated');
  const decipher = createDecipheriv('aes-256-gcm', key, nonceOf(prefix, counter, last));
  decipher.setAAD(header);
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
  } catch (error) {
    throw new FileDecryptionError('the stored file does not authenticate: wrong key, or the file was changed', { cause: error });
  }
}

async function* encryptRecords(content: AsyncIterable<Buffer | string>, keyId: string, key: Buffer, counted: { plaintextBytes: number }): AsyncGenerator<Buffer> {
  const prefix = randomBytes(PREFIX_BYTES);
  const id = Buffer.from(keyId, 'utf8');
  const header = Buffer.concat([MAGIC, Buffer.from([id.length]), id, prefix]);
  yield header;
  let counter = 0;
  let pending: Buffer = Buffer.alloc(0);
  for await (const chunk of content) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    counted.plaintextBytes += bytes.length;
    pending = pending.length ? Buffer.concat([pending, bytes]) : bytes;
    // A full record is sealed only once more follows, so the last one can carry its flag.
    while (pending.length > RECORD_BYTES) {
      yield sealRecord(key, header, prefix, counter++, pending.subarray(0, RECORD_BYTES), false);
      pending = pending.subarray(RECORD_BYTES);
    }
  }
  yield sealRecord(key, header, prefix, counter, pending, true);
}

async function* decryptRecords(stored: AsyncIterable<Buffer>, keys: FileKeys): AsyncGenerator<Buffer> {
  let buffered: Buffer = Buffer.alloc(0);
  let header: Buffer | null = null;
  let key: Buffer | undefined;
  let prefix: Buffer = Buffer.alloc(0);
  let counter = 0;
  const sealedBytes = RECORD_BYTES + TAG_BYTES;
  for await (const chunk of stored) {
    buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
    if (!header) {
      if (buffered.length < MAGIC.length + 1) continue;
      if (!buffered.subarray(0, MAGIC.length).equals(MAGIC)) throw new FileDecryptionError('the stored file is not an encrypted file of this storage');
      const headerBytes = MAGIC.length + 1 + buffered[MAGIC.length]! + PREFIX_BYTES;
      if (buffered.length < headerBytes) continue;
      header = Buffer.from(buffered.subarray(0, headerBytes));
      const keyId = header.subarray(MAGIC.length + 1, headerBytes - PREFIX_BYTES).toString('utf8');
      key = keys.keys.get(keyId);
      if (!key) throw new FileDecryptionError(`the stored file was encrypted with key "${keyId}", which is not configured`);
      prefix = header.subarray(headerBytes - PREFIX_BYTES);
      buffered = buffered.subarray(headerBytes);
    }
    while (buffered.length > sealedBytes) {
      yield openRecord(key!, header, prefix, counter++, buffered.subarray(0, sealedBytes), false);
      buffered = buffered.subarray(sealedBytes);
    }
  }
  if (!header) throw new FileDecryptionError('the stored file is truncated');
  yield openRecord(key!, header, prefix, counter, buffered, true);
}

/**
 * `inner`, with every file encrypted on `save` and decrypted on `open`. `save` answers the
 * plaintext size. `open` reads and authenticates the header and the first record before it
 * answers, so a wrong key or a changed file fails there (a `FileDecryptionError`), not halfway
 * through a download; a later record that fails ends the stream with that error.
 */
export function encryptedStorage(inner: FileStorage, keys: FileKeys): FileStorage {
  const currentKey = keys.keys.get(keys.currentKeyId);
  if (!currentKey || currentKey.length !== 32) throw new Error(`the current key "${keys.currentKeyId}" must be one of the keys, of 32 bytes`);
  return {
    async save(content) {
      const counted = { plaintextBytes: 0 };
      const { key } = await inner.save(Readable.from(encryptRecords(content, keys.currentKeyId, currentKey, counted), { objectMode: false }));
      return { key, sizeBytes: counted.plaintextBytes };
    },
    async open(key) {
      const stored = await inner.open(key);
      if (!stored) return null;
      const records = decryptRecords(stored, keys);
      let first: IteratorResult<Buffer>;
      try {
        first = await records.next();
      } catch (error) {
        stored.destroy();
        throw error;
      }
      async function* all(): AsyncGenerator<Buffer> {
        if (!first.done) yield first.value;
        yield* records;
      }
      const plaintext = Readable.from(all(), { objectMode: false });
      // A reader that stops early (a client gone mid-download) must not leave the stored file open.
      plaintext.once('close', () => stored.destroy());
      return plaintext;
    },
    remove: (key) => inner.remove(key),
  };
}
