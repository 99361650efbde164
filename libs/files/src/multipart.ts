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
  return new MultipartReading(req, storage, options).read();
}

/**
 * One multipart body being read: the parser, what it kept so far, and the first thing that went
 * wrong (`failure`). The parser's events (`onField`, `onFile`) and each file's save (`storeFile`)
 * only record into it or `fail`; `read` pumps the body through (`receiveBody`) and then decides.
 */
class MultipartReading {
  private readonly req: IncomingMessage;
  private readonly storage: FileStorage;
  private readonly options: MultipartOptions;
  private readonly parser: busboy.Busboy | null = null;
  private readonly fields = new Map<string, string>();
  /** By position in the request: saves finish in any order, the files are listed as sent. */
  private readonly stored: StoredUpload[] = [];
  private readonly saving: Promise<void>[] = [];
  /** The parts as sent, for the body's digest; null when nothing waits for it. */
  private readonly parts: DigestPart[] | null;
  private failure: Error | null = null;
  /** The write the parser holds back (a file's storage reading slower than the client sends). */
  private heldWrite: (() => void) | null = null;

  constructor(req: IncomingMessage, storage: FileStorage, options: MultipartOptions) {
    this.req = req;
    this.storage = storage;
    this.options = options;
    this.parts = wantsBodyDigest(req) ? [] : null;
    try {
      this.parser = createParser(req.headers, options);
    } catch (error) {
      this.failure = error as Error;
      return;
    }
    this.parser.on('field', (name: string | undefined, value: string, info: busboy.FieldInfo) => this.onField(name, value, info));
    this.parser.on('file', (name: string | undefined, stream: Readable, info: busboy.FileInfo) => this.onFile(name, stream, info));
    const fileRule = options.files;
    this.parser.on('filesLimit', () => this.fail(fileRule ? tooManyFiles(fileRule.maxCount) : malformedMultipart('this request takes no files')));
    this.parser.on('fieldsLimit', () => this.fail(malformedMultipart('too many fields')));
    this.parser.on('partsLimit', () => this.fail(malformedMultipart('too many parts')));
    this.parser.on('error', (error: Error) => this.fail(malformedMultipart(describeParserError(error))));
  }

  /** The body read to its end (or given up), every save settled: the fields and files, or the failure with nothing kept. */
  async read(): Promise<ParsedMultipart> {
    await this.receiveBody();
    await Promise.all(this.saving);
    const files = this.stored.filter((file): file is StoredUpload => file !== undefined);
    if (!this.failure && this.parts) {
      // Read, checked, not yet handed over: whatever waits for the digest may still stop the request here.
      await bodyDigested(this.req, createHash('sha256').update(JSON.stringify(this.parts)).digest('hex')).catch((error: unknown) => {
        this.failure = error as Error;
      });
    }
    if (this.failure) {
      await removeFiles(this.storage, files.map((file) => file.storageKey));
      throw this.failure;
    }
    return { fields: Object.fromEntries(this.fields), files };
  }

  /** The first failure is the answer. Parsing stops (the file being stored then fails its save and is removed); the rest of the body is read and dropped. */
  private fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    // Destroyed on the next tick: this may run inside one of the parser's events.
    const stopping = this.parser;
    if (stopping) process.nextTick(() => stopping.destroy());
    this.releaseWrite();
  }

  private releaseWrite(): void {
    const callback = this.heldWrite;
    this.heldWrite = null;
    callback?.();
  }

  /** A text field: one the route takes, sent once, within its size. */
  private onField(name: string | undefined, value: string, info: busboy.FieldInfo): void {
    if (this.failure) return;
    const rule = name !== undefined && Object.hasOwn(this.options.fields, name) ? this.options.fields[name] : undefined;
    if (!rule) return this.fail(malformedMultipart(`unexpected field "${name ?? ''}"`));
    if (this.fields.has(name!)) return this.fail(malformedMultipart(`field "${name}" sent twice`));
    if (info.valueTruncated || Buffer.byteLength(value) > rule.maxBytes) return this.fail(fieldTooLarge(name!, rule.maxBytes));
    this.fields.set(name!, value);
    this.parts?.push(['field', name!, value]);
  }

  /** A file of the route's file field and of a declared type allowed: stored as it streams (`storeFile`); any other is drained. */
  private onFile(name: string | undefined, stream: Readable, info: busboy.FileInfo): void {
    const fileRule = this.options.files;
    if (this.failure) return discard(stream);
    if (!fileRule || name !== fileRule.field) {
      this.fail(malformedMultipart(`unexpected file field "${name ?? ''}"${fileRule ? ` (use "${fileRule.field}")` : ''}`));
      return discard(stream);
    }
    if (!fileRule.types.includes(info.mimeType)) {
      this.fail(fileTypeNotAllowed(fileRule.types));
      return discard(stream);
    }
    stream.once('limit', () => this.fail(fileTooLarge(fileRule.maxBytes)));
    const part: DigestPart | null = this.parts ? ['file', name, cleanFileName(info.filename), info.mimeType, 0, ''] : null;
    if (part) this.parts!.push(part);
    this.saving.push(this.storeFile(stream, info, this.saving.length, part));
  }

  /** Saves one file (its stream and the storage's read joined by `pipeline` first), then checks it by its bytes. */
  private async storeFile(stream: Readable, info: busboy.FileInfo, position: number, part: DigestPart | null): Promise<void> {
    const sniffer = new Sniffer(SNIFF_BYTES, part ? createHash('sha256') : null);
    const copied = pipeline(stream, sniffer);
    const saved = (async () => this.storage.save(sniffer))();
    const [copy, save] = await Promise.allSettled([copied, saved]);
    const fileName = cleanFileName(info.filename);
    if (save.status === 'fulfilled') this.stored[position] = { fileName, contentType: info.mimeType, sizeBytes: sniffer.bytes, storageKey: save.value.key };
    if (copy.status === 'rejected') return this.fail(malformedMultipart(describeParserError(copy.reason as Error)));
    // The storage failed on its own (a full disk): a server error, not the client's.
    if (save.status === 'rejected') return this.fail(save.reason as Error);
    if (this.failure) return;
    if (sniffer.bytes === 0) return this.fail(malformedMultipart(`file "${fileName}" is empty`));
    if (part) {
      part[4] = sniffer.bytes;
      part[5] = sniffer.hash!.digest('hex');
    }
    const sniffed = await fileTypeFromBuffer(sniffer.head).catch(() => undefined);
    if (sniffed?.mime !== info.mimeType) this.fail(fileTypeNotAllowed(this.options.files!.types));
  }

  /**
   * Pumps the request into the parser (with its backpressure) until the body's end, the client's
   * going away, or `idleTimeoutMs` without a byte (then 408, whatever failed before: the rest of the
   * body is not coming). After a failure the body is read and dropped: never a reset for the client.
   */
  private async receiveBody(): Promise<void> {
    const idleTimeoutMs = this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    const parser = this.parser;
    let stalled = () => {};
    const stall = new Promise<void>((resolve) => (stalled = resolve));
    const idle = setTimeout(() => {
      const stalledError = bodyStalled(idleTimeoutMs);
      this.fail(stalledError);
      // This answer must close the connection, whatever failed before.
      this.failure = stalledError;
      stalled();
    }, idleTimeoutMs);
    const parserClosed = new Promise<void>((resolve) => (parser ? parser.once('close', () => resolve()) : resolve()));
    const body = new Writable({
      write: (chunk: Buffer, _encoding, callback) => {
        idle.refresh();
        if (this.failure || !parser) return callback();
        this.heldWrite = callback;
        try {
          parser.write(chunk, () => this.releaseWrite());
        } catch (error) {
          this.fail(malformedMultipart((error as Error).message));
        }
      },
      final: (callback) => {
        clearTimeout(idle);
        if (!this.failure && parser) parser.end();
        void parserClosed.then(() => callback());
      },
    });
    const received = pipeline(this.req, body).catch(() => this.fail(malformedMultipart('the client closed the connection before the end of its body')));
    await Promise.race([received, stall]);
    clearTimeout(idle);
  }
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
