import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from '@jest/globals';
import { multipartBody, sendRaw, type MultipartPart, type RawOutcome } from '@academy/testing/multipart';
import { cleanFileName, type FileStorage } from '../src/index.ts';
import { filesUnder, PDF, PNG, useUploadServer } from './upload-server.ts';

const file = (filename: string, contentType: string, value: Buffer): MultipartPart => ({ name: 'files', filename, contentType, value });
const json = (outcome: RawOutcome) => (outcome.status === 'closed' ? null : JSON.parse(outcome.body));

describe('parseMultipart', () => {
  let saves = 0;
  // The first file's save finishes last.
  const slowFirstSave = (storage: FileStorage): FileStorage => ({
    ...storage,
    save: async (content) => {
      const delayMs = saves++ === 0 ? 150 : 0;
      const saved = await storage.save(content);
      await sleep(delayMs);
      return saved;
    },
  });
  const server = useUploadServer(undefined, slowFirstSave);
  const post = async (parts: MultipartPart[]) => {
    const { body, contentType } = multipartBody(parts);
    return sendRaw(server().url, { path: '/upload', headers: { 'content-type': contentType }, body });
  };

  test('gives the fields and the files stored, in the order they were sent, whichever save finishes first', async () => {
    saves = 0; // other tests of this file may have saved first: this request's first file is the slow one
    const outcome = await post([{ name: 'message', value: 'see attached' }, file('../sheet.pdf', 'application/pdf', PDF), file('photo.png', 'image/png', PNG)]);
    expect(outcome.status).toBe(201);
    const { fields, files } = json(outcome);
    expect(fields).toEqual({ message: 'see attached' });
    expect(files.map((stored: { fileName: string; contentType: string; sizeBytes: number }) => [stored.fileName, stored.contentType, stored.sizeBytes])).toEqual([
      ['sheet.pdf', 'application/pdf', PDF.length],
      ['photo.png', 'image/png', PNG.length],
    ]);
    expect(filesUnder(server().root)).toHaveLength(2);
    for (const stored of files) await server().storage.remove(stored.storageKey);
  });

  const message: MultipartPart = { name: 'message', value: 'hi' };
  test.each([
    ['a declared type outside the list', [message, file('notes.txt', 'text/plain', Buffer.from('hello'))], 415, 'FILE_TYPE_NOT_ALLOWED'],
    ['bytes that are not the declared type', [message, file('fake.png', 'image/png', Buffer.from('MZ this is an exe'))], 415, 'FILE_TYPE_NOT_ALLOWED'],
    ['a PDF declared as a PNG', [message, file('sheet.png', 'image/png', PDF)], 415, 'FILE_TYPE_NOT_ALLOWED'],
    ['a file over the size limit', [message, file('big.pdf', 'application/pdf', Buffer.concat([PDF, Buffer.alloc(64 * 1024)]))], 413, 'FILE_TOO_LARGE'],
    ['more files than allowed', [message, ...[1, 2, 3, 4].map((n) => file(`p${n}.png`, 'image/png', PNG))], 413, 'TOO_MANY_FILES'],
    ['an empty file', [message, file('empty.pdf', 'application/pdf', Buffer.alloc(0))], 400, 'MALFORMED_MULTIPART'],
    ['a field sent twice', [message, { name: 'message', value: 'two' }], 400, 'MALFORMED_MULTIPART'],
    ['a field it does not take', [message, { name: 'userId', value: '1' }], 400, 'MALFORMED_MULTIPART'],
    ['a file under another field name', [{ ...file('p.png', 'image/png', PNG), name: 'message' }], 400, 'MALFORMED_MULTIPART'],
    ['a field over its size limit', [{ name: 'message', value: 'x'.repeat(1025) }], 413, 'FIELD_TOO_LARGE'],
  ])('%s is a %i %s, and nothing stays stored', async (_label, parts, status, code) => {
    const outcome = await post(parts as MultipartPart[]);
    expect(outcome.status).toBe(status);
    expect(json(outcome).code).toBe(code);
    expect(filesUnder(server().root)).toEqual([]);
  });

  test('a file of exactly the size limit is accepted', async () => {
    const exact = Buffer.concat([PDF, Buffer.alloc(64 * 1024 - PDF.length)]);
    const outcome = await post([file('exact.pdf', 'application/pdf', exact)]);
    expect(outcome.status).toBe(201);
    const [stored] = json(outcome).files;
    expect(stored.sizeBytes).toBe(64 * 1024);
    await server().storage.remove(stored.storageKey);
  });

  test('a field sent twice says which', async () => {
    const outcome = await post([{ name: 'message', value: 'one' }, { name: 'message', value: 'two' }]);
    expect(json(outcome).message).toBe('Malformed multipart body: field "message" sent twice');
  });

  test('a body that is not multipart is a 415', async () => {
    const outcome = await sendRaw(server().url, { path: '/upload', headers: { 'content-type': 'application/json' }, body: Buffer.from('{}') });
    expect(outcome.status).toBe(415);
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
