// One trace per request, read as an operator would: from the spans the services exported to an OTLP
// receiver (tools/dev/otlp-receiver.ts, the one `npm start` runs), never from the code's internals.
// A block approval, a double clock-in and a payslip publish each give ONE trace that runs from the
// gateway through the service, its outbox, the broker and the consumer to the SMTP send / socket emit.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO, startTestSystem, type TestSystem } from './harness.ts';
import { call, eventually, login, type Session } from './client.ts';
import { payslipEmployees } from './payslip-employees.ts';
import { demoPdf } from '../../apps/payslips/src/seed.ts';
import { readSpans, startOtlpReceiver, type OtlpReceiver, type StoredSpan } from '../dev/otlp-receiver.ts';
import { traceIdsFor } from '../trace.ts';

let system: TestSystem;
let receiver: OtlpReceiver;
let dir: string;
let gw: string;
let admin: Session;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'academy-tracing-'));
  receiver = await startOtlpReceiver({ file: path.join(dir, 'spans.jsonl'), port: 0 });
  const tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '200' };
  system = await startTestSystem({ name: 'tracing', redisDb: 12, env: { all: tracing, gateway: tracing }, log: (line) => process.stderr.write(`[tracing] ${line}\n`) });
  gw = system.gateway;
  admin = await login(gw, DEMO.admin);
}, 240_000);

afterAll(async () => {
  await system?.stop();
  await receiver?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

const label = (span: StoredSpan) => `${span.service}: ${span.name}`;

/**
 * The one trace of the request `requestId`, once it holds a span named like each of `leaves` and
 * every span's parent (spans arrive in batches, from several processes): a parent never exported
 * fails the wait. Fails when the request id names more than one trace.
 */
async function traceOf(requestId: string, leaves: RegExp[]): Promise<StoredSpan[]> {
  return eventually(`the trace of ${requestId} with ${leaves.join(', ')}`, async () => {
    const spans = readSpans(receiver.file);
    const traceIds = traceIdsFor(spans, requestId);
    expect(traceIds.length).toBeLessThanOrEqual(1);
    const trace = spans.filter((span) => span.traceId === traceIds[0]);
    // Whole too: each process exports its spans in its own batches, so a leaf can arrive before a parent.
    const ids = new Set(trace.map((span) => span.spanId));
    const whole = trace.every((span) => !span.parentSpanId || ids.has(span.parentSpanId));
    return traceIds.length === 1 && whole && leaves.every((leaf) => trace.some((span) => leaf.test(label(span)))) ? trace : undefined;
  }, 30_000, 250);
}

/** From the span named like `leaf` up to the root, each step its parent: the labels, root first. */
function pathTo(trace: StoredSpan[], leaf: RegExp): string[] {
  const byId = new Map(trace.map((span) => [span.spanId, span]));
  let span = trace.find((candidate) => leaf.test(label(candidate)));
  const labels: string[] = [];
  while (span) {
    labels.unshift(label(span));
    span = span.parentSpanId ? byId.get(span.parentSpanId) : undefined;
  }
  return labels;
}

/** Every span's parent is in the trace (nothing lost on the way), and the one root is the gateway's server span. */
function expectWhole(trace: StoredSpan[]): void {
  const ids = new Set(trace.map((span) => span.spanId));
  expect(trace.filter((span) => span.parentSpanId && !ids.has(span.parentSpanId)).map(label)).toEqual([]);
  const roots = trace.filter((span) => !span.parentSpanId);
  expect(roots.map((span) => [span.service, span.kind])).toEqual([['gateway', 2]]);
}

/** `expected`, in order, within `path` (other spans, such as the service's route handler, may sit between). */
function expectInOrder(path: string[], expected: RegExp[]): void {
  let at = 0;
  for (const step of expected) {
    const found = path.findIndex((label, index) => index >= at && step.test(label));
    expect({ path, missing: found < 0 ? String(step) : null }).toEqual({ path, missing: null });
    at = found + 1;
  }
}

describe('one trace per request, gateway → service → outbox → broker → consumer → delivery', () => {
  test('a block approval: the approval mails are sent in the trace of the admin’s request', async () => {
    // The seed's: teacher1's student 39 has block 17 open (the README's tour).
    const teacher = await login(gw, DEMO.teacher(1));
    const closed = await call(gw, 'POST', '/api/v2/blocks/17/close', { token: teacher.accessToken, body: { studentId: 39, grade: 8.5 } });
    expect(closed.status).toBe(200);
    const requestId = `trace-approval-${system.id}`;
    const approved = await call(gw, 'POST', `/api/v2/blocks/student-block/${closed.body.studentBlockId}/review`, {
      token: admin.accessToken,
      body: { action: 'approve' },
      headers: { 'x-request-id': requestId },
    });
    expect(approved.status).toBe(200);

    const trace = await traceOf(requestId, [/^notifications: smtp send block\.approved$/]);
    expectWhole(trace);
    expectInOrder(pathTo(trace, /^notifications: smtp send block\.approved$/), [
      /^gateway: POST /,
      /^academic: POST /,
      /^academic: publish block\.approved$/,
      /^notifications: process block\.approved$/,
      /^notifications: smtp send block\.approved$/,
    ]);
  });

  test('a double clock-in: the 409’s incident reaches the employee’s socket in the trace of the second clock-in', async () => {
    const employee = await login(gw, DEMO.teacher(2));
    expect((await call(gw, 'POST', '/api/v2/timerecord/clock-in', { token: employee.accessToken, body: { source: 'Web' } })).status).toBe(201);
    const requestId = `trace-clock-in-${system.id}`;
    const twice = await call(gw, 'POST', '/api/v2/timerecord/clock-in', { token: employee.accessToken, body: { source: 'Web' }, headers: { 'x-request-id': requestId } });
    expect(twice.status).toBe(409);

    const trace = await traceOf(requestId, [/^notifications: socket emit incident_notification$/]);
    expectWhole(trace);
    expectInOrder(pathTo(trace, /^notifications: socket emit incident_notification$/), [
      /^gateway: POST /,
      /^incidents: POST /,
      /^incidents: publish incident\.created$/,
      /^notifications: process incident\.created$/,
      /^notifications: socket emit incident_notification$/,
    ]);
    expect(trace.find((span) => span.service === 'gateway' && !span.parentSpanId)!.attributes['http.response.status_code']).toBe(409);
  });

  test('a payslip publish: the payslip’s mail is sent in the trace of the publish, and its PDF was read in a worker task of the upload’s', async () => {
    const teacher = await login(gw, DEMO.teacher(1));
    const employeeId = teacher.user.employeeId!;
    const [me] = await payslipEmployees(system, [employeeId]);
    const period = { periodStart: '2026-03-01', periodEnd: '2026-03-31', label: 'Nómina marzo 2026' };
    const form = new FormData();
    for (const [name, value] of Object.entries({ ...period, matchBy: 'taxId' })) form.set(name, value);
    form.set('file', new Blob([new Uint8Array(await demoPdf([{ employee: me!, period }]))], { type: 'application/pdf' }), 'nominas-marzo.pdf');
    const uploadId = `trace-upload-${system.id}`;
    const uploaded = await fetch(`${gw}/api/v2/payslips/batches`, { method: 'POST', headers: { authorization: `Bearer ${admin.accessToken}`, 'x-request-id': uploadId }, body: form });
    expect(uploaded.status).toBe(202);
    const batchId = ((await uploaded.json()) as { data: { id: number } }).data.id;
    await eventually('the batch read', async () => {
      const batch = await call(gw, 'GET', `/api/v2/payslips/batches/${batchId}`, { token: admin.accessToken });
      return batch.body.data.status === 'reading' ? undefined : batch.body.data;
    });
    const requestId = `trace-publish-${system.id}`;
    const published = await call(gw, 'POST', `/api/v2/payslips/batches/${batchId}/publish`, { token: admin.accessToken, headers: { 'x-request-id': requestId } });
    expect(published.status).toBe(200);

    const trace = await traceOf(requestId, [/^notifications: smtp send payslip\.published$/]);
    expectWhole(trace);
    expectInOrder(pathTo(trace, /^notifications: smtp send payslip\.published$/), [
      /^gateway: POST /,
      /^payslips: POST /,
      /^payslips: publish payslip\.published$/,
      /^notifications: process payslip\.published$/,
      /^notifications: smtp send payslip\.published$/,
    ]);
    const upload = await traceOf(uploadId, [/^payslips: pdf read$/]);
    expectInOrder(pathTo(upload, /^payslips: pdf read$/), [/^gateway: POST /, /^payslips: POST /, /^payslips: pdf read$/]);
  });
});
