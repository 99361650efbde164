// Issue 28, items 2–6, 9 and 10 (payslips): sends the probe's attacks to a running `npm start`
// through the gateway and prints what each answered. `node apps/payslips/probe/issue-28.ts [gateway URL]`.
// It publishes payslips for the demo teachers (it is the dev stack); the accepted upload's stored
// file is downloaded and rendered with poppler's pdftoppm to /tmp/payslips-probe-accepted-1.png.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { demoPdf, lastMonths } from '../src/seed.ts';
import { pageTreeBomb, truncatedPdf } from '../test/hostile-pdfs.ts';

const GATEWAY = process.argv[2] ?? 'http://localhost:3000';
const api = (route: string) => `${GATEWAY}/api/v2${route}`;
let failures = 0;

function report(what: string, answer: { status: number; body: Record<string, unknown>; ms: number }, expected: string, ok: boolean) {
  if (!ok) failures++;
  const { code, message } = answer.body;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}\n     → ${answer.status} in ${answer.ms} ms ${JSON.stringify({ code, message })}\n       expected ${expected}`);
}

async function call(route: string, init: RequestInit & { token?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  const started = performance.now();
  const res = await fetch(api(route), { ...init, headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  } catch {
    // a file, or an empty HEAD answer
  }
  return { status: res.status, body, bytes, headers: res.headers, ms: Math.round(performance.now() - started) };
}

async function login(email: string, password: string): Promise<string> {
  const res = await call('/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  return res.body.accessToken as string;
}

function form(fields: Record<string, string | number>, file: Buffer): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, String(value));
  data.append('file', new Blob([new Uint8Array(file)], { type: 'application/pdf' }), 'nomina.pdf');
  return data;
}

const admin = await login('admin@academy.local', 'admin1234');
const teacher = await login('teacher1@academy.local', 'teacher1234');
const mine = await call('/payslips/my', { token: teacher });
const ownPayslip = (mine.body.data as { id: number }[])[0]!;
const listed = await call(`/payslips?limit=100`, { token: admin });
const employeeId = (listed.body.data as { id: number; employeeId: number }[]).find((payslip) => payslip.id === ownPayslip.id)!.employeeId;
const [period] = lastMonths(new Date().toISOString().slice(0, 10), 1);
const single = (label: string) => ({ employeeId, periodStart: period!.periodStart, periodEnd: period!.periodEnd, label });
let unique = 0;
const payslip = () => demoPdf([{ employee: { id: employeeId, name: `Probe ${Date.now()} ${++unique}`, taxId: '00000000T' }, period: period! }]);
const upload = (file: Buffer, label = 'Probe') => call('/payslips', { method: 'POST', token: admin, body: form(single(label), file) });

console.log(`# issue 28 (payslips) against ${GATEWAY}, employee ${employeeId}, period ${period!.periodStart}\n`);

// 2. A truncated PDF; what is accepted is rendered.
for (const fraction of [0.6, 0.8, 0.9]) {
  const res = await upload(truncatedPdf(await payslip(), fraction));
  report(`2. the first ${fraction * 100}% of a valid payslip, uploaded`, res, '422 PDF_UNREADABLE', res.status === 422 && res.body.code === 'PDF_UNREADABLE');
}
const target = await upload(await payslip(), 'Probe: to correct');
const truncatedCorrection = await call(`/payslips/${(target.body.data as { id: number }).id}/replace`, { method: 'POST', token: admin, body: form({}, truncatedPdf(await payslip(), 0.8)) });
report('2. a correction with the first 80% of a payslip', truncatedCorrection, '422 PDF_UNREADABLE', truncatedCorrection.status === 422);

// 3. The page tree bomb, then a normal upload at once.
const bomb = pageTreeBomb(26);
const bombed = await upload(bomb);
report(`3. a ${bomb.length}-byte PDF declaring 67,108,864 pages`, bombed, '422 TOO_MANY_PAGES in milliseconds', bombed.status === 422 && bombed.ms < 1_000);
const bombedBatch = await call('/payslips/batches', { method: 'POST', token: admin, body: form({ periodStart: period!.periodStart, periodEnd: period!.periodEnd, label: 'Probe', matchBy: 'taxId' }, bomb) });
report('3. the same as a combined PDF', bombedBatch, '422 TOO_MANY_PAGES in milliseconds', bombedBatch.status === 422 && bombedBatch.ms < 1_000);
const normal = await upload(await payslip(), 'Probe: right after the bomb');
report('3. a normal upload right after it', normal, '201, not delayed', normal.status === 201 && normal.ms < 3_000);
const normalId = (normal.body.data as { id: number }).id;
const file = await call(`/payslips/${normalId}/file`, { token: admin });
writeFileSync('/tmp/payslips-probe-accepted.pdf', file.bytes);
execFileSync('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', '/tmp/payslips-probe-accepted.pdf', '/tmp/payslips-probe-accepted']);
console.log(`     the accepted upload's stored file rendered by pdftoppm: /tmp/payslips-probe-accepted-1.png (${existsSync('/tmp/payslips-probe-accepted-1.png')})`);
const deep = await upload(pageTreeBomb(11));
report('10. a single upload of 2,048 pages', deep, "422 TOO_MANY_PAGES \"A payslip's PDF may have…\"", deep.status === 422 && String(deep.body.message).startsWith("A payslip's PDF"));

// 4. A stalled body, through the gateway.
const stalled = await new Promise<{ status: number; body: Record<string, unknown>; ms: number }>((resolve) => {
  const { hostname, port } = new URL(GATEWAY);
  const started = performance.now();
  const socket = net.connect({ host: hostname, port: Number(port) });
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString()));
  socket.on('error', () => undefined);
  socket.on('close', () => {
    const [head = '', body = ''] = received.split('\r\n\r\n');
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(body) as Record<string, unknown>;
    } catch {
      // no body
    }
    resolve({ status: Number(head.split(' ')[1]), body: parsed, ms: Math.round(performance.now() - started) });
  });
  const part = `--b\r\ncontent-disposition: form-data; name="employeeId"\r\n\r\n${employeeId}\r\n--b\r\ncontent-disposition: form-data; name="file"; filename="n.pdf"\r\ncontent-type: application/pdf\r\n\r\n%PDF-1.7\n`;
  socket.write(`POST /api/v2/payslips HTTP/1.1\r\nhost: ${hostname}\r\nauthorization: Bearer ${admin}\r\ncontent-type: multipart/form-data; boundary=b\r\ncontent-length: 100000\r\nconnection: close\r\n\r\n${part}`);
});
report('4. an upload whose body stalls', stalled, "408 REQUEST_TIMEOUT before the gateway's 10 s", stalled.status === 408 && stalled.ms < 10_000);

// 5. The demo batch published, then uploaded again.
const demoBatch = path.resolve('.local/dev/payslips/demo-batch.pdf');
if (existsSync(demoBatch)) {
  const fields = { periodStart: period!.periodStart, periodEnd: period!.periodEnd, label: 'Probe: combined', matchBy: 'taxId' };
  const ready = async () => {
    const created = await call('/payslips/batches', { method: 'POST', token: admin, body: form(fields, readFileSync(demoBatch)) });
    for (let tries = 0; tries < 60; tries++) {
      const batch = await call(`/payslips/batches/${(created.body.data as { id: number }).id}`, { token: admin });
      if ((batch.body.data as { status: string }).status !== 'reading') return batch;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error('the batch was never read');
  };
  const first = await ready();
  await call(`/payslips/batches/${(first.body.data as { id: number }).id}/publish`, { method: 'POST', token: admin });
  const again = await ready();
  const runs = (again.body.data as { matches: { employeeId: number; payslips: { fromPage: number; duplicateOfPayslipId: number | null }[] }[] }).matches.flatMap((match) =>
    match.payslips.map((run) => `page ${run.fromPage} employee ${match.employeeId} → payslip ${run.duplicateOfPayslipId}`),
  );
  console.log(`     the preview of the same combined PDF again: ${runs.join('; ')}`);
  const published = await call(`/payslips/batches/${(again.body.data as { id: number }).id}/publish`, { method: 'POST', token: admin });
  report('5. publishing the combined PDF uploaded again', published, '200, the duplicates left out', published.status === 200 && runs.every((run) => !run.endsWith('null')));
} else console.log(`skip 5: no ${demoBatch} (npm start writes it)`);

// 6. A correction reverted to the original file.
const originalFile = await payslip();
const original = await upload(originalFile, 'Probe: original');
const wrong = await call(`/payslips/${(original.body.data as { id: number }).id}/replace`, { method: 'POST', token: admin, body: form({}, await payslip()) });
const reverted = await call(`/payslips/${(wrong.body.data as { id: number }).id}/replace`, { method: 'POST', token: admin, body: form({}, originalFile) });
report('6. a correction back to the original file', reverted, '201', reverted.status === 201);

// 9. HEAD by the employee, then the list.
const viewedAt = async () => ((await call(`/payslips?employeeId=${employeeId}&limit=100`, { token: admin })).body.data as { id: number; firstViewedAt: string | null }[]).find((p) => p.id === normalId)!.firstViewedAt;
const head = await call(`/payslips/${normalId}/file`, { method: 'HEAD', token: teacher });
const afterHead = await viewedAt();
report(`9. HEAD of the file by its employee (firstViewedAt now ${afterHead})`, head, '200 and firstViewedAt still null', head.status === 200 && afterHead === null);

// 10. Non-PDF bytes.
const png = await upload(Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'));
report('10. PNG bytes named nomina.pdf', png, '415 FILE_TYPE_NOT_ALLOWED (as the OpenAPI now says)', png.status === 415 && png.body.code === 'FILE_TYPE_NOT_ALLOWED');

console.log(`\n${failures ? `${failures} FAILED` : 'all as expected'}`);
process.exit(failures ? 1 : 0);
