import { describe, expect, test } from '@jest/globals';
import { cleanFileName, sniffType } from './uploads.ts';

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
