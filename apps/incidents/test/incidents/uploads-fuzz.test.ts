import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { multipartBody, multipartFuzzCases, sendRaw, type MultipartPart } from '@academy/testing/multipart';
import { seedEmployee, sql, useIncidents } from '../support.ts';

/** A 1×1 PNG of 68 bytes, as in issue 18's probe, and a PDF padded to 32 KB (so cuts fall mid-file too). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'), Buffer.alloc(32 * 1024, 0x20)]);
const parts: MultipartPart[] = [
  { name: 'message', value: 'My sheet and a photo' },
  { name: 'files', filename: 'photo.png', contentType: 'image/png', value: PNG },
  { name: 'files', filename: 'sheet.pdf', contentType: 'application/pdf', value: PDF },
];

describe('POST /api/v2/incident/:id/thread, fuzzed with broken multipart bodies', () => {
  const service = useIncidents({ UPLOAD_IDLE_TIMEOUT_MS: 300 });
  let employee: Awaited<ReturnType<typeof employeeWithIncident>>;
  const threadPath = (incidentId = employee.incidentId) => `/api/v2/incident/${incidentId}/thread`;

  /** An employee with one incident (a clock-out without clock-in). */
  async function employeeWithIncident() {
    const seeded = await seedEmployee(service());
    const res = await fetch(`${service().url}/api/v2/timerecord/clock-out`, {
      method: 'POST',
      headers: { ...seeded.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ source: 'App', deviceId: 'phone' }),
    });
    expect(res.status).toBe(409);
    return { ...seeded, incidentId: ((await res.json()) as { details: { incidentId: number } }).details.incidentId };
  }

  beforeAll(async () => {
    employee = await employeeWithIncident();
  });

  const storedFiles = () => {
    const walk = (dir: string): string[] => readdirSync(dir).flatMap((name) => (statSync(path.join(dir, name)).isDirectory() ? walk(path.join(dir, name)) : [path.join(dir, name)]));
    return walk(service().ctx.config.FILES_DIR);
  };

  /** The service still answers, the incident has no message and no file row, and the storage folder holds what it held `before`. */
  async function expectNothingWrittenAndAnswering(before: string[]) {
    const { incidentId } = employee;
    const ready = await fetch(`${service().url}/readyz`);
    expect(ready.status).toBe(200);
    const detail = await fetch(`${service().url}/api/v2/incident/${incidentId}`, { headers: employee.auth });
    expect(detail.status).toBe(200);
    expect(((await detail.json()) as { data: { messages: unknown[] } }).data.messages).toEqual([]);
    for (let i = 0; i < 50 && storedFiles().length > before.length; i++) await sleep(20);
    expect(storedFiles()).toEqual(before);
    expect(await sql(service(), 'select id from incident_messages where incident_id = $1', [incidentId])).toEqual([]);
    expect(await sql(service(), 'select id from incident_files where incident_id = $1', [incidentId])).toEqual([]);
  }

  test("issue 18's probe: a valid message, a 68-byte PNG and no closing --boundary-- line is a 400, and the service keeps answering", async () => {
    const before = storedFiles();
    const probe = multipartBody([parts[0]!, parts[1]!], { boundary: 'ProbeBoundary7MA4YWxkTrZu0gW', close: false });
    expect(PNG).toHaveLength(68);
    const outcome = await sendRaw(service().url, { path: threadPath(), headers: { ...employee.auth, 'content-type': probe.contentType }, body: probe.body });
    expect(outcome.status).toBe(400);
    expect(outcome.status !== 'closed' && JSON.parse(outcome.body).code).toBe('MALFORMED_MULTIPART');
    await expectNothingWrittenAndAnswering(before);
  });

  test.each(multipartFuzzCases(parts).map((fuzz) => [fuzz.label, fuzz] as const))('%s: a 4xx or a closed connection, nothing written, the service answers', async (_label, fuzz) => {
    const before = storedFiles();
    const outcome = await sendRaw(service().url, { path: threadPath(), ...fuzz.request, headers: { ...employee.auth, ...fuzz.request.headers } }, 5_000);
    if (fuzz.expect === 'aborted') expect(outcome.status).toBe('closed');
    else {
      if (outcome.status === 'closed') throw new Error('closed without an answer');
      expect(outcome.status).toBeGreaterThanOrEqual(400);
      expect(outcome.status).toBeLessThan(500);
      if (fuzz.expect === 'timeout') expect([outcome.status, outcome.closedAfter]).toEqual([408, true]);
    }
    await expectNothingWrittenAndAnswering(before);
  });

  test('the same body, whole, is a 201 with both files (the cases above fail for what they break)', async () => {
    const other = await employeeWithIncident();
    const before = storedFiles();
    const { body, contentType } = multipartBody(parts);
    const outcome = await sendRaw(service().url, { path: threadPath(other.incidentId), headers: { ...other.auth, 'content-type': contentType }, body });
    expect(outcome.status).toBe(201);
    expect(storedFiles()).toHaveLength(before.length + 2);
  });
});
