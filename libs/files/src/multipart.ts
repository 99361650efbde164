import { createHash, type Hash } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { Transform, Writable, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { fileTypeFromBuffer } from 'file-type';
import { bodyDigested, wantsBodyDigest } from '@academy/kit';
import { bodyStalled, fieldTooLarge, fileTooLarge, fileTypeNotAllowed, malformedMultipart, notMultipart, tooManyFiles } from './errors.ts';
import { removeFiles, type FileStorage } from './storage.ts';

/** What one route accepts as multipart/form-data. */
export interface MultipartOptions {
  /** The text fields it takes, by name: each at most `maxBytes` (UTF-8) and sent once. Any other is a 400. */
  fields: Readonly<Record<string, { maxBytes: number }>>;
  /** Its one file field, if it takes files: how many, how large each, and the types allowed (declared and by content). */
  files?: { field: string; maxCount: number; maxBytes: number; types: readonly string[] };
  /** A body that sends nothing for this long is given up: 408, and the connection is closed. 15 s by default. */
  idleTimeoutMs?: number;
}

/** A part as the body's digest sees it: a field's name and value, or a file's field, name, type, size and SHA-256. */
type DigestPart = ['field', string, string] | ['file', string, string, string, number, string];

export interface StoredUpload {
  fileName: string;
  /** The declared type, which the file's bytes were checked to be. */
  contentType: string;
  /** Bytes received (what the storage keeps may differ, if it encrypts or compresses). */
  sizeBytes: number;
  storageKey: string;
}

export interface ParsedMultipart {
  fields: Record<string, string>;
  /** In the order they were sent. */
  files: StoredUpload[];
}

const DEFAULT_IDLE_TIMEOUT_MS = 15_000;
/** RFC 2046 §5.1.1. */
const MAX_BOUNDARY_LENGTH = 70;
/** Enough for `file-type` to recognise any type it knows. */
const SNIFF_BYTES = 4100;

/**
 * Reads a multipart/form-data request: the allowed text fields and files, each file stored as it
 * streams in and then checked by its bytes. Every stream on the way (the request, the parser, each
 * file, the storage write) has its errors handled, so no body can end the process. On any problem
 * the stored files are removed and the promise rejects with a 4xx `AppError`, once the body has been
 * read to its end (the client then sees the answer, not a reset connection); a client that stops
 * sending gets a 408 after `idleTimeoutMs`, and one that goes away ends it at once.
 *
 * When something waits for the body's digest (`awaitBodyDigest` in @academy/kit: a keyed write's
 * Idempotency-Key), each file is hashed as it streams (no second read) and, once the body is read
 * and before the files are handed over, the digest of its parts (fields and files, in order; not the
 * boundary, so a retry framed anew is the same request) is told (`bodyDigested`): if that refuses,
 * the stored files are removed and its error is thrown.
 */
export async function parseMultipart(req: IncomingMessage, storage: FileStorage, options: MultipartOptions): Promise<ParsedMultipart> {
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const fileRule = options.files;
  const fields = new Map<string, string>();
  // By position in the request: saves finish in any order, the files are listed as sent.
  const stored: StoredUpload[] = [];
  const saving: Promise<void>[] = [];
  let failure: Error | null = null;
  // The parts as sent, for the body's digest; null when nothing waits for it.
  const parts: DigestPart[] | null = wantsBodyDigest(req) ? [] : null;

  let parser: busboy.Busboy | null = null;
  try {
    parser = createParser(req.headers, options);
  } catch (error) {
    failure = error as Error;
  }

  /** The write the parser holds back (a file's storage reading slower than the client sends). */
  let heldWrite: (() => void) | null = null;
  const releaseWrite = () => {
    const callback = heldWrite;
    heldWrite = null;
    callback?.();
  };
  const fail = (error: Error) => {
    if (failure) return;
    failure = error;
    // Parsing stops (the file being stored then fails its save and is removed); the rest of the body
    // is read and dropped. Destroyed on the next tick: this may run inside one of the parser's events.
    const stopping = parser;
    if (stopping) process.nextTick(() => stopping.destroy());
    releaseWrite();
  };

  if (parser) {
    parser.on('field', (name: string | undefined, value: string, info: busboy.FieldInfo) => {
      if (failure) return;
      const rule = name !== undefined && Object.hasOwn(options.fields, name) ? options.fields[name] : undefined;
      if (!rule) return fail(malformedMultipart(`unexpected field "${name ?? ''}"`));
      if (fields.has(name!)) return fail(malformedMultipart(`field "${name}" sent twice`));
      if (info.valueTruncated || Buffer.byteLength(value) > rule.maxBytes) return fail(fieldTooLarge(name!, rule.maxBytes));
      fields.set(name!, value);
      parts?.push(['field', name!, value]);
    });
    parser.on('file', (name: string | undefined, stream: Readable, info: busboy.FileInfo) => {
      if (failure) return discard(stream);
      if (!fileRule || name !== fileRule.field) {
        fail(malformedMultipart(`unexpected file field "${name ?? ''}"${fileRule ? ` (use "${fileRule.field}")` : ''}`));
        return discard(stream);
      }
      if (!fileRule.types.includes(info.mimeType)) {
        fail(fileTypeNotAllowed(fileRule.types));
        return discard(stream);
      }
      stream.once('limit', () => fail(fileTooLarge(fileRule.maxBytes)));
      const part: DigestPart | null = parts ? ['file', name, cleanFileName(info.filename), info.mimeType, 0, ''] : null;
      if (part) parts!.push(part);
      saving.push(storeFile(stream, info, stored, saving.length, part));
    });
    parser.on('filesLimit', () => fail(fileRule ? tooManyFiles(fileRule.maxCount) : malformedMultipart('this request takes no files')));
    parser.on('fieldsLimit', () => fail(malformedMultipart('too many fields')));
    parser.on('partsLimit', () => fail(malformedMultipart('too many parts')));
    parser.on('error', (error: Error) => fail(malformedMultipart(describeParserError(error))));
  }

  /** Saves one file (its stream and the storage's read joined by `pipeline` first), then checks it by its bytes. */
  async function storeFile(stream: Readable, info: busboy.FileInfo, into: StoredUpload[], position: number, part: DigestPart | null): Promise<void> {
    const sniffer = new Sniffer(SNIFF_BYTES, part ? createHash('sha256') : null);
    const copied = pipeline(stream, sniffer);
    const saved = (async () => storage.save(sniffer))();
    const [copy, save] = await Promise.allSettled([copied, saved]);
    const fileName = cleanFileName(info.filename);
    if (save.status === 'fulfilled') into[position] = { fileName, contentType: info.mimeType, sizeBytes: sniffer.bytes, storageKey: save.value.key };
    if (copy.status === 'rejected') return fail(malformedMultipart(describeParserError(copy.reason as Error)));
    // The storage failed on its own (a full disk): a server error, not the client's.
    if (save.status === 'rejected') return fail(save.reason as Error);
    if (failure) return;
    if (sniffer.bytes === 0) return fail(malformedMultipart(`file "${fileName}" is empty`));
    if (part) {
      part[4] = sniffer.bytes;
      part[5] = sniffer.hash!.digest('hex');
    }
    const sniffed = await fileTypeFromBuffer(sniffer.head).catch(() => undefined);
    if (sniffed?.mime !== info.mimeType) fail(fileTypeNotAllowed(fileRule!.types));
  }

  let stalled = () => {};
  const stall = new Promise<void>((resolve) => (stalled = resolve));
  const idle = setTimeout(() => {
    const stalledError = bodyStalled(idleTimeoutMs);
    fail(stalledError);
    // Whatever went wrong before, this answer must close the connection: the rest of the body is not coming.
    failure = stalledError;
    stalled();
  }, idleTimeoutMs);
  const parserClosed = new Promise<void>((resolve) => (parser ? parser.once('close', () => resolve()) : resolve()));
  // The body goes to the parser while all is well, and is dropped after a failure: never back to the client as a reset.
  const body = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      idle.refresh();
      if (failure || !parser) return callback();
      heldWrite = callback;
      try {
        parser.write(chunk, () => releaseWrite());
      } catch (error) {
        fail(malformedMultipart((error as Error).message));
      }
    },
    final(callback) {
      clearTimeout(idle);
      if (!failure && parser) parser.end();
      void parserClosed.then(() => callback());
    },
  });

  const received = pipeline(req, body).catch(() => fail(malformedMultipart('the client closed the connection before the end of its body')));

  await Promise.race([received, stall]);
  clearTimeout(idle);
  await Promise.all(saving);
  const files = stored.filter((file): file is StoredUpload => file !== undefined);
  if (!failure && parts) {
    // Read, checked, not yet handed over: whatever waits for the digest may still stop the request here.
    await bodyDigested(req, createHash('sha256').update(JSON.stringify(parts)).digest('hex')).catch((error: unknown) => {
      failure = error as Error;
    });
  }
  if (failure) {
    await removeFiles(storage, files.map((file) => file.storageKey));
    throw failure;
  }
  return { fields: Object.fromEntries(fields), files };
}

function createParser(headers: IncomingHttpHeaders, options: MultipartOptions): busboy.Busboy {
  const contentType = headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*(;|$)/i.test(contentType)) throw notMultipart();
  const boundary = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
  const boundaryLength = (boundary?.[1] ?? boundary?.[2] ?? '').length;
  if (boundaryLength === 0) throw malformedMultipart('the content-type has no boundary');
  if (boundaryLength > MAX_BOUNDARY_LENGTH) throw malformedMultipart(`the boundary is longer than ${MAX_BOUNDARY_LENGTH} characters`);
  const fieldNames = Object.keys(options.fields);
  const maxFiles = options.files?.maxCount ?? 0;
  try {
    return busboy({
      headers,
      limits: {
        // One over each limit, so that reaching it means "too large" (busboy flags a value that reaches it exactly).
        fieldSize: Math.max(0, ...fieldNames.map((name) => options.fields[name]!.maxBytes)) + 1,
        fileSize: (options.files?.maxBytes ?? 0) + 1,
        // One more field than allowed, so that a field sent twice reaches the check that says so.
        fields: fieldNames.length + 1,
        files: maxFiles,
        // Every allowed part, one extra file (to be told "too many files") and the closing delimiter.
        parts: fieldNames.length + maxFiles + 3,
      },
    });
  } catch (error) {
    throw malformedMultipart((error as Error).message);
  }
}

/** busboy's errors, said for the client. */
function describeParserError(error: Error): string {
  switch (error.message) {
    case 'Unexpected end of form':
      return 'the body ended before its closing boundary';
    case 'Unexpected end of file':
      return 'the body ended inside a file';
    case 'Malformed part header':
      return 'a part header is malformed or larger than 16 KB';
    default:
      return error.message;
  }
}

/** Reads a part to its end and drops it (its errors handled too: busboy destroys it when parsing stops). */
function discard(stream: Readable): void {
  void pipeline(stream, new Writable({ write: (_chunk, _encoding, callback) => callback() })).catch(() => undefined);
}

/** Passes bytes through, counting them, keeping the first `keep` for type detection and feeding `hash` when given. */
class Sniffer extends Transform {
  bytes = 0;
  readonly hash: Hash | null;
  private readonly keep: number;
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;

  constructor(keep: number, hash: Hash | null) {
    super();
    this.keep = keep;
    this.hash = hash;
  }

  get head(): Buffer {
    return Buffer.concat(this.kept);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    this.hash?.update(chunk);
    if (this.keptBytes < this.keep) {
      const part = chunk.subarray(0, this.keep - this.keptBytes);
      this.kept.push(part);
      this.keptBytes += part.length;
    }
    callback(null, chunk);
  }
}

/** A file name fit for a header and a listing: no path, no control characters, 255 characters at most. */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim().slice(0, 255);
  return clean || 'attachment';
}
