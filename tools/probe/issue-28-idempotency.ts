// Issue 28, items 1, 7, 8 and 10 (generic): sends the probe's attacks to a running `npm start` and
// prints what each answered. `node tools/probe/issue-28-idempotency.ts [gateway URL]`.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import PDFDocument from 'pdfkit';
import { demoTaxId } from '@academy/contracts';

const GATEWAY = process.argv[2] ?? 'http://localhost:3000';
const SERVICES = { hoursBank: 'http://127.0.0.1:3002', notifications: 'http://127.0.0.1:3004', payslips: 'http://127.0.0.1:3005' };
const api = (path: string) => `${GATEWAY}/api/v2${path}`;

let failures = 0;
function report(what: string, answer: { status: number; body: unknown; headers?: Headers | http.IncomingHttpHeaders }, expected: string, ok: boolean) {
  if (!ok) failures++;
  const replayed = answer.headers instanceof Headers ? answer.headers.get('idempotent-replayed') : answer.headers?.['idempotent-replayed'];
  const body = typeof answer.body === 'object' && answer.body !== null ? JSON.stringify(pick(answer.body as Record<string, unknown>)) : String(answer.body).slice(0, 120);
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}\n     → ${answer.status}${replayed ? ' (replayed)' : ''} ${body}\n       expected ${expected}`);
}
const pick = (body: Record<string, unknown>) => {
  const data = body.data as Record<string, unknown> | undefined;
  return { code: body.code, message: body.message, success: body.success, meta: body.meta, data: data && !Array.isArray(data) ? { id: data.id, status: data.status } : Array.isArray(data) ? `[${data.length} rows]` : undefined };
};

async function call(url: string, init: RequestInit & { key?: string; token?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  if (init.key) headers.set('idempotency-key', init.key);
  const res = await fetch(url, { ...init, headers });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: printed as text
  }
  return { status: res.status, body: body as Record<string, unknown>, headers: res.headers };
}

/** A raw request with two Idempotency-Key header lines (fetch would join them into one). */
function twoKeys(url: string, token: string, body: string): Promise<{ status: number; body: unknown; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': ['probe-aaa', 'probe-bbb'] } }, async (res) => {
      const text = (await buffer(res)).toString();
      resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || '{}'), headers: res.headers });
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function pdf(pages: string[]): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false, compress: false, info: { CreationDate: new Date('2026-01-01T00:00:00Z') } });
  for (const text of pages) doc.addPage().fontSize(14).text(text);
  doc.end();
  return buffer(doc);
}

function form(fields: Record<string, string>, file: Buffer): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  data.append('file', new Blob([file], { type: 'application/pdf' }), 'probe.pdf');
  return data;
}

async function login(email: string, password: string): Promise<string> {
  const res = await call(api('/auth/login'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.accessToken as string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const admin = await login('admin@academy.local', 'admin1234');
  const someone = (await call(api('/payslips?limit=1'), { token: admin })).body.data as { employeeId: number }[];
  const employeeId = someone[0]?.employeeId;
  if (!employeeId) throw new Error('no payslip seeded: is this `npm start` with its seed?');
  const run = randomUUID().slice(0, 8);
  // Two payslips from one template: same size, different figures.
  const [pdfA, pdfB] = await Promise.all([pdf([`Nómina ${run} NIF ${demoTaxId(employeeId)} importe 1.111,11`]), pdf([`Nómina ${run} NIF ${demoTaxId(employeeId)} importe 2.222,22`])]);
  console.log(`employee ${employeeId}; two PDFs of ${pdfA.length} and ${pdfB.length} bytes, ${pdfA.equals(pdfB) ? 'equal' : 'different'}\n`);

  console.log('## 1. An Idempotency-Key covers the file of an upload');
  const month = { employeeId: String(employeeId), periodStart: '2024-03-01', periodEnd: '2024-03-31', label: `Probe ${run}` };
  const up = (file: Buffer, key: string) => call(api('/payslips'), { method: 'POST', token: admin, key, body: form(month, file) });
  const k1 = `probe-up-${run}`;
  const first = await up(pdfA, k1);
  report('POST /payslips with K1 and PDF A', first, '201', first.status === 201);
  const same = await up(pdfA, k1);
  report('POST /payslips with K1 and PDF A again (a new multipart boundary)', same, '201 replayed, the same id', same.status === 201 && same.headers.get('idempotent-replayed') === 'true' && (same.body.data as { id: number })?.id === (first.body.data as { id: number })?.id);
  const other = await up(pdfB, k1);
  report('POST /payslips with K1 and PDF B (same size)', other, '422 IDEMPOTENCY_KEY_REUSED', other.status === 422 && other.body.code === 'IDEMPOTENCY_KEY_REUSED');

  const payslipId = (first.body.data as { id: number }).id;
  const k2 = `probe-fix-${run}`;
  const fix = (file: Buffer) => call(api(`/payslips/${payslipId}/replace`), { method: 'POST', token: admin, key: k2, body: form({ label: `Probe fix ${run}` }, file) });
  const fixed = await fix(pdfB);
  report('POST /payslips/:id/replace with K2 and PDF B', fixed, '201', fixed.status === 201);
  const fixedAgain = await fix(pdfB);
  report('… with K2 and PDF B again', fixedAgain, '201 replayed', fixedAgain.status === 201 && fixedAgain.headers.get('idempotent-replayed') === 'true');
  const fixedOther = await fix(pdfA);
  report('… with K2 and PDF A (same size)', fixedOther, '422 IDEMPOTENCY_KEY_REUSED', fixedOther.status === 422);

  const batchFields = { periodStart: '2024-04-01', periodEnd: '2024-04-30', label: `Probe batch ${run}`, matchBy: 'taxId' };
  const k3 = `probe-batch-${run}`;
  const batch = (file: Buffer, key: string) => call(api('/payslips/batches'), { method: 'POST', token: admin, key, body: form(batchFields, file) });
  const sentBatch = await batch(pdfA, k3);
  report('POST /payslips/batches with K3 and PDF A', sentBatch, '202', sentBatch.status === 202);
  const otherBatch = await batch(pdfB, k3);
  report('… with K3 and PDF B (same size)', otherBatch, '422 IDEMPOTENCY_KEY_REUSED', otherBatch.status === 422);

  console.log('\n## 7. A "try again" is not kept with the key');
  // Another batch, published at once with K4 (still reading, most runs), then again with K4 once it is read.
  const [pdfC] = await Promise.all([pdf([`Nómina ${run} C NIF ${demoTaxId(employeeId)} importe 3.333,33`])]);
  const reading = await batch(pdfC, `probe-batch-c-${run}`);
  const batchId = (reading.body.data as { id: number }).id;
  const k4 = `probe-publish-${run}`;
  const publish = () => call(api(`/payslips/batches/${batchId}/publish`), { method: 'POST', token: admin, key: k4 });
  const early = await publish();
  report('publish with K4 at once (the batch is being read)', early, '409 BATCH_NOT_READY with Retry-After (or 200 if the read was already done)', (early.status === 409 && early.headers.get('retry-after') !== null) || early.status === 200);
  for (let i = 0; i < 60; i++) {
    const shown = await call(api(`/payslips/batches/${batchId}`), { token: admin });
    if ((shown.body.data as { status: string }).status !== 'reading') break;
    await sleep(500);
  }
  const later = await publish();
  report('publish with K4 once it is ready', later, '200 published (not the stored 409)', later.status === 200 && (later.body.data as { status: string })?.status === 'published');

  console.log('\n## 8. Totals do not depend on the page asked for');
  for (const path of [`/payslips?employeeId=${employeeId}&page=1&limit=10`, `/payslips?employeeId=${employeeId}&page=3&limit=10`, `/payslips?page=999&limit=10`, '/incident/?page=999&limit=10', '/notifications/deliveries?page=999&limit=10', '/blocks/completed?page=999&limit=10']) {
    const res = await call(api(path), { token: admin });
    const meta = res.body.meta as { totalItems: number; totalPages: number } | undefined;
    const page1 = path.includes('page=999') || path.includes('page=3') ? await call(api(path.replace(/page=\d+/, 'page=1')), { token: admin }) : res;
    const sameTotals = meta !== undefined && JSON.stringify({ ...meta, currentPage: 0 }) === JSON.stringify({ ...(page1.body.meta as object), currentPage: 0 });
    report(`GET ${path}`, res, 'the totals of page 1', res.status === 200 ? sameTotals : res.status === 400);
  }

  console.log('\n## 10. Contract mismatches (generic)');
  const hours = '/hours-bank/1/completed';
  const viaGateway = await twoKeys(api(hours), admin, '{"time":"1h"}');
  report('two Idempotency-Key headers through the gateway', viaGateway, '400 INVALID_IDEMPOTENCY_KEY, nothing added', viaGateway.status === 400);
  const direct = await twoKeys(`${SERVICES.hoursBank}/api/v2${hours}`, admin, '{"time":"1h"}');
  report('two Idempotency-Key headers straight to hours-bank', direct, '400 INVALID_IDEMPOTENCY_KEY', direct.status === 400);
  for (const [name, url, style] of [
    ['hours-bank', api(hours), 'status'],
    ['notifications', api('/notifications/token'), 'success'],
  ] as const) {
    const plain = await call(url, { method: 'POST', token: admin, headers: { 'content-type': 'text/plain' }, body: '{"time":"1h","deviceId":"d","token":"t","platform":"android"}' });
    report(`${name}: a JSON body sent as text/plain`, plain, `415 in the ${style} family's body`, plain.status === 415 && (style === 'success' ? plain.body.success === false : true));
    const nothing = await call(url, { method: 'POST', token: admin, headers: { 'content-type': 'application/json' }, body: 'null' });
    report(`${name}: a body of null`, nothing, '400 "the body must be a JSON object"', nothing.status === 400 && String(nothing.body.message).includes('JSON object'));
  }

  console.log(failures ? `\n${failures} unexpected answer(s)` : '\nevery answer as expected');
  process.exitCode = failures ? 1 : 0;
}

await main();
