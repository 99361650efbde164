import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, test } from '@jest/globals';
import type { Request } from 'express';
import { diskStorage, type FileStorage } from '../shared/storage.ts';
import { cleanFileName, parseMultipartMessage, sniffType } from './uploads.ts';

describe('sniffType', () => {
  test('knows PDF, PNG, JPEG and WebP by their first bytes', () => {
    expect(sniffType(Buffer.from('%PDF-1.7\n'))).toBe('application/pdf');
    expect(sniffType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(sniffType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffType(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]))).toBe('image/webp');
  });

  test('anything else, or too few bytes, is unknown', () => {
    expect(sniffType(Buffer.from('MZ\x90\x00'))).toBeNull();
    expect(sniffType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffType(Buffer.from('%PD'))).toBeNull();
    expect(sniffType(Buffer.alloc(0))).toBeNull();
  });
});

describe('cleanFileName', () => {
  test('keeps the base name only, without control characters or quotes, at most 255 characters', () => {
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('C:\\Users\\ana\\hoja.pdf')).toBe('hoja.pdf');
    expect(cleanFileName('a"b\r\nc.png')).toBe('abc.png');
    expect(cleanFileName(`${'x'.repeat(300)}.pdf`)).toHaveLength(255);
  });

  test('an empty or missing name becomes "attachment"', () => {
    expect(cleanFileName(undefined)).toBe('attachment');
    expect(cleanFileName('   ')).toBe('attachment');
    expect(cleanFileName('dir/')).toBe('attachment');
  });
});

describe('parseMultipartMessage', () => {
  const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63000100000500010d0a2db40000000049454e44ae426082', 'hex');
  const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

  test('lists the files in the order they were sent, whichever save finishes first', async () => {
    const disk = diskStorage(mkdtempSync(path.join(tmpdir(), 'uploads-order-')));
    let saves = 0;
    // The first file's save finishes last.
    const storage: FileStorage = {
      ...disk,
      save: async (content) => {
        const delayMs = saves++ === 0 ? 150 : 0;
        const saved = await disk.save(content);
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        return saved;
      },
    };
    const boundary = 'order-boundary';
    const part = (name: string, type: string, bytes: Buffer) =>
      Buffer.concat([Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="files"; filename="${name}"\r\ncontent-type: ${type}\r\n\r\n`), bytes, Buffer.from('\r\n')]);
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="message"\r\n\r\nsee attached\r\n`),
      part('sheet.pdf', 'application/pdf', PDF),
      part('photo.png', 'image/png', PNG),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
    const req = Object.assign(Readable.from([body]), {
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length) },
      complete: true,
    }) as unknown as Request;
    const parsed = await parseMultipartMessage(req, storage);
    expect(parsed.message).toBe('see attached');
    expect(parsed.files.map((file) => [file.fileName, file.sizeBytes])).toEqual([
      ['sheet.pdf', PDF.length],
      ['photo.png', PNG.length],
    ]);
  });
});
