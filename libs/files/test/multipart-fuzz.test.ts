import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { multipartBody, multipartFuzzCases, sendRaw, type MultipartPart } from '@academy/testing/multipart';
import { filesUnder, PDF, PNG, useUploadServer } from './upload-server.ts';

const parts: MultipartPart[] = [
  { name: 'message', value: 'see attached' },
  { name: 'files', filename: 'photo.png', contentType: 'image/png', value: PNG },
  { name: 'files', filename: 'sheet.pdf', contentType: 'application/pdf', value: Buffer.concat([PDF, Buffer.alloc(32 * 1024, 0x20)]) },
];

describe('parseMultipart, fuzzed through a real HTTP server', () => {
  const server = useUploadServer();

  /** The server still answers, no parse is left pending, and no file is left stored. */
  async function expectCleanAndAnswering() {
    const ping = await sendRaw(server().url, { method: 'GET', path: '/ping', headers: {}, body: Buffer.alloc(0) });
    expect(ping.status).toBe(200);
    for (let i = 0; i < 50 && (server().inFlight() > 0 || filesUnder(server().root).length > 0); i++) await sleep(20);
    expect(server().inFlight()).toBe(0);
    expect(filesUnder(server().root)).toEqual([]);
  }

  test.each(multipartFuzzCases(parts).map((fuzz) => [fuzz.label, fuzz] as const))('%s: a 4xx (or a closed connection when the client left), nothing stored, the server answers', async (_label, fuzz) => {
    const outcome = await sendRaw(server().url, { path: '/upload', ...fuzz.request }, 5_000);
    if (fuzz.expect === 'aborted') expect(outcome.status).toBe('closed');
    else {
      if (outcome.status === 'closed') throw new Error('closed without an answer');
      expect(outcome.status).toBeGreaterThanOrEqual(400);
      expect(outcome.status).toBeLessThan(500);
      if (fuzz.expect === 'timeout') {
        expect(outcome.status).toBe(408);
        expect(outcome.closedAfter).toBe(true);
      }
    }
    await expectCleanAndAnswering();
  });

  test("issue 18's probe: a message, a 68-byte PNG and no closing delimiter is a 400", async () => {
    const probe = multipartBody([parts[0]!, parts[1]!], { boundary: 'ProbeBoundary7MA4YWxkTrZu0gW', close: false });
    expect(PNG).toHaveLength(68);
    const outcome = await sendRaw(server().url, { path: '/upload', headers: { 'content-type': probe.contentType }, body: probe.body });
    expect(outcome.status).toBe(400);
    expect(outcome.status !== 'closed' && JSON.parse(outcome.body)).toEqual({ code: 'MALFORMED_MULTIPART', message: 'Malformed multipart body: the body ended before its closing boundary' });
    await expectCleanAndAnswering();
  });

  test('a body cut anywhere, announced as whole, is a 400 that stores nothing (property)', async () => {
    const { body, contentType } = multipartBody(parts);
    await fc.assert(
      // Up to the closing delimiter's last dash: its CRLF may go (what follows it is the epilogue).
      fc.asyncProperty(fc.integer({ min: 0, max: body.length - 3 }), async (cut) => {
        const outcome = await sendRaw(server().url, { path: '/upload', headers: { 'content-type': contentType }, body: body.subarray(0, cut) });
        expect(outcome.status).toBe(400);
        await expectCleanAndAnswering();
      }),
      { numRuns: 60 },
    );
  });

  test('the whole body is stored (the cases above fail for what they break, not for another reason)', async () => {
    const { body, contentType } = multipartBody(parts);
    const outcome = await sendRaw(server().url, { path: '/upload', headers: { 'content-type': contentType }, body });
    expect(outcome.status).toBe(201);
    const { files } = JSON.parse(outcome.status === 201 ? outcome.body : '{}');
    expect(files).toHaveLength(2);
    for (const file of files) await server().storage.remove(file.storageKey);
  });
});
