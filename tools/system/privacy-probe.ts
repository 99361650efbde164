// Attacks the personal data request routes of a running system (`npm start`): another admin's
// request, a teacher, bad ids and bodies, the same Idempotency-Key twice and with another body, two
// admins racing, the internal part route through the gateway. Prints each answer; exits 1 on a 5xx
// or on an answer other than the one expected. `node tools/system/privacy-probe.ts [gateway URL]`.
import { randomUUID } from 'node:crypto';

const gateway = process.argv[2] ?? 'http://127.0.0.1:3000';
const PATH = '/api/v2/privacy-requests';
let failures = 0;

async function login(email: string, password: string): Promise<string> {
  const res = await fetch(`${gateway}/api/v2/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  if (!res.ok) throw new Error(`login ${email}: ${res.status}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

async function call(what: string, expected: number[], path: string, init: RequestInit & { token?: string; key?: string } = {}) {
  const headers: Record<string, string> = { ...(init.body ? { 'content-type': 'application/json' } : {}), ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...(init.key ? { 'idempotency-key': init.key } : {}) };
  const res = await fetch(`${gateway}${path}`, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
  const text = await res.text();
  const ok = expected.includes(res.status);
  if (!ok || res.status >= 500) failures += 1;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}: ${res.status} ${text.slice(0, 160).replace(/\s+/g, ' ')}`);
  return { status: res.status, body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : null };
}

const admin = await login('admin@academy.local', 'admin1234');
const admin2 = await login('admin2@academy.local', 'admin1234');
const teacher = await login('teacher1@academy.local', 'teacher1234');
const employees = (await (await fetch(`${gateway}/api/v2/employees?limit=50`, { headers: { authorization: `Bearer ${admin}` } })).json()) as { data: { id: number }[] };
const target = employees.data.at(-1)!.id;

await call('a teacher opens one', [403], PATH, { method: 'POST', token: teacher, body: JSON.stringify({ kind: 'access', subject: { kind: 'employee', id: target } }) });
await call('a teacher lists them', [403], PATH, { token: teacher });
await call('no token', [401], PATH);
await call('unknown person', [404], PATH, { method: 'POST', token: admin, body: JSON.stringify({ kind: 'access', subject: { kind: 'student', id: 987654 } }) });
for (const body of ['{', 'null', '[]', '{"kind":"access"}', '{"kind":"access","subject":{"kind":"robot","id":1}}', '{"kind":"access","subject":{"kind":"employee","id":"1 or 1=1"}}', '{"kind":"access","subject":{"kind":"employee","id":1e30}}', JSON.stringify({ kind: 'access', subject: { kind: 'employee', id: 1 }, pad: 'x'.repeat(200_000) })]) {
  await call(`hostile body ${body.slice(0, 40)}`, [400, 413], PATH, { method: 'POST', token: admin, body });
}
for (const id of ['0', '-1', 'abc', '1.5', '99999999999999999999', '%00', '..%2f..%2fetc']) await call(`bad id ${id}`, [400, 404], `${PATH}/${id}`, { token: admin });
await call('an unknown request', [404], `${PATH}/987654`, { token: admin });

const key = randomUUID();
const body = JSON.stringify({ kind: 'access', subject: { kind: 'employee', id: target } });
const first = await call('open (admin, keyed)', [201, 409], PATH, { method: 'POST', token: admin, key, body });
await call('the same key again', [201, 409], PATH, { method: 'POST', token: admin, key, body });
await call('the same key, another body', [422], PATH, { method: 'POST', token: admin, key, body: JSON.stringify({ kind: 'erasure', subject: { kind: 'employee', id: target } }) });
await call("a second request for the person (another admin)", [409], PATH, { method: 'POST', token: admin2, body });
if (first.body?.id) {
  await call("another admin reads the first admin's request", [200], `${PATH}/${first.body.id}`, { token: admin2 });
  await call('a teacher reads it', [403], `${PATH}/${first.body.id}`, { token: teacher });
  await call('a teacher downloads it', [403], `${PATH}/${first.body.id}/export`, { token: teacher });
}
await call('the internal part route through the gateway', [404], `/internal/privacy/parts/${randomUUID()}`, { headers: { 'x-api-key': 'dev-privacy-api-key-change-me' } });

// Two admins race for one more person: one 201, one 409.
const raced = employees.data.at(-2)!.id;
const race = await Promise.all([admin, admin2].map((token) => fetch(`${gateway}${PATH}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'access', subject: { kind: 'employee', id: raced } }) })));
const statuses = race.map((res) => res.status).sort();
console.log(`${statuses.join(',') === '201,409' ? 'ok  ' : 'FAIL'} two admins race: ${statuses.join(', ')}`);
if (statuses.join(',') !== '201,409') failures += 1;

console.log(failures === 0 ? 'every answer as expected' : `${failures} unexpected answers`);
process.exit(failures === 0 ? 0 : 1);
