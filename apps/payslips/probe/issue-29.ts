// Issue 29 (payslips on the typed router; notifications' preferences in the keyed transaction): sends
// attacks to a running `npm start` through the gateway and prints what each answered.
// `node apps/payslips/probe/issue-29.ts [gateway URL]`. It publishes payslips for a demo teacher.
import { demoPdf, lastMonths } from '../src/seed.ts';

const GATEWAY = process.argv[2] ?? 'http://localhost:3000';
const api = (route: string) => `${GATEWAY}/api/v2${route}`;
let failures = 0;

function check(what: string, answer: { status: number; body: Record<string, unknown>; headers: Headers }, expected: string, ok: boolean) {
  if (!ok) failures++;
  const { code } = answer.body;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}\n     → ${answer.status} ${JSON.stringify({ code, replayed: answer.headers.get('idempotent-replayed') })}\n       expected ${expected}`);
}

async function call(route: string, init: RequestInit & { token?: string; key?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  if (init.key) headers.set('idempotency-key', init.key);
  const res = await fetch(api(route), { ...init, headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  } catch {
    // a file, or an empty HEAD answer
  }
  return { status: res.status, body, bytes, headers: res.headers };
}

const json = (method: string, token: string, body: unknown, key?: string) => ({ method, token, key, headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });

async function login(email: string, password: string): Promise<string> {
  const res = await call('/auth/login', json('POST', '', { email, password }));
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
const own = (mine.body.data as { id: number }[])[0]!;
const listed = await call('/payslips?limit=100', { token: admin });
const rows = listed.body.data as { id: number; employeeId: number }[];
const employeeId = rows.find((row) => row.id === own.id)!.employeeId;
const others = rows.find((row) => row.employeeId !== employeeId);
const [period] = lastMonths(new Date().toISOString().slice(0, 10), 1);
const fields = (label: string) => ({ employeeId, periodStart: period!.periodStart, periodEnd: period!.periodEnd, label });
const pdf = (tag: string) => demoPdf([{ employee: { id: employeeId, name: `Probe 29 ${tag} ${Date.now()}`, taxId: '00000000T' }, period: period! }]);
const run = Date.now();

console.log(`# issue 29 against ${GATEWAY}, employee ${employeeId}\n`);

// The download: a file answer through the router.
const file = await call(`/payslips/${own.id}/file`, { token: teacher });
check('GET own payslip file', { ...file, body: {} }, '200 application/pdf, private no-store, nosniff, %PDF', file.status === 200 && file.headers.get('content-type') === 'application/pdf' && file.headers.get('cache-control') === 'private, no-store' && file.headers.get('x-content-type-options') === 'nosniff' && file.bytes.subarray(0, 4).toString() === '%PDF');
const head = await call(`/payslips/${own.id}/file`, { method: 'HEAD', token: teacher });
check('HEAD own payslip file', { ...head, body: {} }, '200, no body', head.status === 200 && head.bytes.length === 0);
if (others) {
  const theirs = await call(`/payslips/${others.id}/file`, { token: teacher });
  check("GET another employee's payslip file", theirs, '404 PAYSLIP_NOT_FOUND', theirs.status === 404 && theirs.body.code === 'PAYSLIP_NOT_FOUND');
}
for (const id of ['abc', '0', '-1', '1e3', '99999999999999999999']) {
  const bad = await call(`/payslips/${id}/file`, { token: teacher });
  check(`GET /payslips/${id}/file`, bad, '400 VALIDATION_ERROR', bad.status === 400);
}
const missing = await call('/payslips/2147483000/file', { token: admin });
check('GET an unknown payslip file (admin)', missing, '404', missing.status === 404);

// Uploads with an Idempotency-Key (the fingerprint by parts).
const body = await pdf('keyed');
const first = await call('/payslips', { method: 'POST', token: admin, key: `p29-${run}`, body: form(fields('Probe 29'), body) });
check('upload with a key', first, '201', first.status === 201);
const again = await call('/payslips', { method: 'POST', token: admin, key: `p29-${run}`, body: form(fields('Probe 29'), body) });
check('the same upload, same key (framed anew)', again, '201 replayed, same body', again.status === 201 && again.headers.get('idempotent-replayed') === 'true' && JSON.stringify(again.body) === JSON.stringify(first.body));
const other = await call('/payslips', { method: 'POST', token: admin, key: `p29-${run}`, body: form(fields('Probe 29: other label'), body) });
check('another upload, same key', other, '422 IDEMPOTENCY_KEY_REUSED', other.status === 422 && other.body.code === 'IDEMPOTENCY_KEY_REUSED');
const raced = await Promise.all(Array.from({ length: 5 }, async () => call('/payslips', { method: 'POST', token: admin, key: `p29-race-${run}`, body: form(fields('Probe 29: race'), await pdf('race')) })));
check('5 concurrent different uploads, one key', { status: raced.filter((res) => res.status === 201).length, body: {}, headers: new Headers() }, 'one 201, the others 409 or 422', raced.filter((res) => res.status === 201 && !res.headers.get('idempotent-replayed')).length === 1 && raced.every((res) => [201, 409, 422].includes(res.status)));
const asTeacher = await call('/payslips', { method: 'POST', token: teacher, body: form(fields('Probe 29'), await pdf('teacher')) });
check('upload as a teacher', asTeacher, '403', asTeacher.status === 403);

// Delete and the batch routes on the router.
const uploadedId = (first.body.data as { id: number }).id;
const noReason = await call(`/payslips/${uploadedId}`, json('DELETE', admin, {}));
check('delete without a reason', noReason, '400', noReason.status === 400);
const extra = await call(`/payslips/${uploadedId}`, json('DELETE', admin, { reason: 'probe 29', extra: 1 }));
check('delete with an unknown field', extra, '400', extra.status === 400);
const truncated = await call(`/payslips/${uploadedId}`, json('DELETE', admin, '{"reason": "pro'));
check('delete with a truncated body', truncated, '400', truncated.status === 400);
const deleted = await call(`/payslips/${uploadedId}`, json('DELETE', admin, { reason: 'probe 29' }));
check('delete', deleted, '200', deleted.status === 200);
const batch = await call('/payslips/batches', { method: 'POST', token: admin, body: form({ periodStart: period!.periodStart, periodEnd: period!.periodEnd, label: `Probe 29 ${run}`, matchBy: 'taxId' }, await pdf('batch')) });
check('a combined PDF', batch, '202 reading', batch.status === 202);
const batchId = (batch.body.data as { id: number }).id;
const shown = await call(`/payslips/batches/${batchId}`, { token: admin });
check('show the batch', shown, '200', shown.status === 200);
const discarded = await call(`/payslips/batches/${batchId}`, { method: 'DELETE', token: admin });
check('discard the batch (once read)', discarded, '200 or 409 BATCH_NOT_READY', discarded.status === 200 || discarded.status === 409);
const wrongPage = await call(`/payslips/batches/${batchId}/pages/x/assign`, json('POST', admin, { employeeId }));
check('assign page x', wrongPage, '400', wrongPage.status === 400);

// Notifications' preferences with a key: replay, another body, critical off (nothing stored).
const prefs = { preferences: [{ type: 'attendance_reminder', channel: 'push', enabled: false }] };
const put1 = await call('/notifications/preferences', json('PUT', teacher, prefs, `np29-${run}`));
check('PUT preferences with a key', put1, '200', put1.status === 200);
const put2 = await call('/notifications/preferences', json('PUT', teacher, prefs, `np29-${run}`));
check('the same PUT, same key', put2, '200 replayed', put2.status === 200 && put2.headers.get('idempotent-replayed') === 'true');
const put3 = await call('/notifications/preferences', json('PUT', teacher, { preferences: [{ type: 'attendance_reminder', channel: 'push', enabled: true }] }, `np29-${run}`));
check('another PUT, same key', put3, '422 IDEMPOTENCY_KEY_REUSED', put3.status === 422);
const critical = await call('/notifications/preferences', json('PUT', teacher, { preferences: [{ type: 'attendance_reminder', channel: 'push', enabled: true }, { type: 'incident', channel: 'email', enabled: false }] }, `np29-crit-${run}`));
const after = await call('/notifications/preferences', { token: teacher });
const reminder = (after.body.data as { preferences: { type: string; channel: string; enabled: boolean }[] }).preferences.find((row) => row.type === 'attendance_reminder' && row.channel === 'push');
check('critical off (with a key), then GET', critical, '400 CRITICAL_NOTIFICATION_TYPE, the reminder still off', critical.status === 400 && reminder?.enabled === false);
const restore = await call('/notifications/preferences', json('PUT', teacher, { preferences: [{ type: 'attendance_reminder', channel: 'push', enabled: true }] }, `np29-restore-${run}`));
check('restore', restore, '200', restore.status === 200);

console.log(`\n${failures ? `${failures} FAILED` : 'all as expected'}`);
process.exitCode = failures ? 1 : 0;
