import { Transform, type TransformCallback } from 'node:stream';
import type { Request } from 'express';
import busboy from 'busboy';
import { INCIDENT_FILE_MAX_BYTES, INCIDENT_FILE_TYPES, INCIDENT_FILES_PER_MESSAGE } from '@academy/contracts';
import { fileTooLarge, fileTypeNotAllowed, malformedMultipart, tooManyFiles } from '../shared/errors.ts';
import type { FileStorage } from '../shared/storage.ts';

export interface StoredUpload {
  fileName: string;
  contentType: string;
  sizeBytes: number;
  storageKey: string;
}

export interface ParsedMessage {
  message: unknown;
  files: StoredUpload[];
}

/** The type a file's first bytes show, among the allowed ones (the declared type is not trusted). */
export function sniffType(head: Buffer): (typeof INCIDENT_FILE_TYPES)[number] | null {
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return null;
}

/** Passes bytes through and keeps the first 16 for `sniffType`. */
class HeadCapture extends Transform {
  head = Buffer.alloc(0);
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.head.length < 16) this.head = Buffer.concat([this.head, chunk.subarray(0, 16 - this.head.length)]);
    callback(null, chunk);
  }
}

/** A file name fit for a header and a listing: no path, no control characters, 255 characters at most. */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim().slice(0, 255);
  return clean || 'attachment';
}

/**
 * Reads a multipart/form-data message: the `message` field and up to five `files` of at most
 * 10 MB, each of an allowed type by its content. Files are stored as they stream in; if anything
 * is wrong they are removed and the request is answered only once its body has been read to the
 * end (so the client sees the 4xx instead of a reset connection).
 */
export function parseMultipartMessage(req: Request, storage: FileStorage): Promise<ParsedMessage> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { fileSize: INCIDENT_FILE_MAX_BYTES, files: INCIDENT_FILES_PER_MESSAGE, fields: 4, fieldSize: 64 * 1024, parts: 12 },
      });
    } catch (error) {
      reject(malformedMultipart((error as Error).message));
      return;
    }
    // By position in the request (saves finish in any order): the message lists its files as sent.
    const stored: StoredUpload[] = [];
    const saving: Promise<void>[] = [];
    let message: unknown;
    let failure: Error | null = null;
    const fail = (error: Error) => {
      failure ??= error;
    };

    parser.on('field', (name, value, info) => {
      if (name !== 'message') return fail(malformedMultipart(`unexpected field "${name}"`));
      // A truncated field is over the limit whatever it holds: the schema then refuses it as too long.
      message = info.valueTruncated ? 'x'.repeat(64 * 1024 + 1) : value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'files' || failure) {
        if (name !== 'files') fail(malformedMultipart(`unexpected file field "${name}" (use "files")`));
        stream.resume();
        return;
      }
      if (!(INCIDENT_FILE_TYPES as readonly string[]).includes(info.mimeType)) {
        fail(fileTypeNotAllowed(INCIDENT_FILE_TYPES));
        stream.resume();
        return;
      }
      const head = new HeadCapture();
      // `pipe` does not pass on a destroyed source (a client gone mid-upload): end the stored file too.
      stream.once('error', (error: Error) => head.destroy(error));
      let truncated = false;
      stream.on('limit', () => {
        truncated = true;
      });
      const position = saving.length;
      saving.push(
        storage.save(stream.pipe(head)).then(
          async ({ key, sizeBytes }) => {
            const upload = { fileName: cleanFileName(info.filename), contentType: info.mimeType, sizeBytes, storageKey: key };
            stored[position] = upload;
            if (truncated) fail(fileTooLarge(INCIDENT_FILE_MAX_BYTES));
            else if (sizeBytes === 0) fail(malformedMultipart(`file "${upload.fileName}" is empty`));
            else if (sniffType(head.head) !== info.mimeType) fail(fileTypeNotAllowed(INCIDENT_FILE_TYPES));
          },
          (error: Error) => fail(error),
        ),
      );
    });
    parser.on('filesLimit', () => fail(tooManyFiles(INCIDENT_FILES_PER_MESSAGE)));
    parser.on('partsLimit', () => fail(malformedMultipart('too many parts')));
    parser.on('fieldsLimit', () => fail(malformedMultipart('too many fields')));
    parser.on('error', (error: Error) => {
      fail(malformedMultipart(error.message));
      req.unpipe(parser);
      req.resume();
      void finish();
    });
    parser.on('close', () => void finish());

    let finished = false;
    const finish = async () => {
      if (finished) return;
      finished = true;
      await Promise.all(saving);
      const files = stored.filter((file) => file !== undefined);
      if (failure) {
        await Promise.all(files.map((file) => storage.remove(file.storageKey).catch(() => undefined)));
        reject(failure);
      } else resolve({ message, files });
    };
    // A client that goes away mid-upload: the parser is destroyed, which ends the file being stored (then removed).
    req.once('close', () => {
      if (!req.complete) parser.destroy(malformedMultipart('the request ended before its body'));
    });
    req.pipe(parser);
  });
}
