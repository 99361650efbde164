// `node tools/dev/probe-unsubscribe.ts`, with `npm start` up: attacks the guardians' unsubscribe link
// and the admin's opt-out routes through the gateway, as a mail scanner, a forger and a careless
// client would. Two guardian mails are made by publishing `attendance.threshold-crossed` to the dev
// broker; their links are read from maildev's List-Unsubscribe headers. Prints one line per check,
// exits 1 if any failed. Repeatable (each run uses new addresses).
import { urls } from '@academy/infra';
import { createEnvelope, type EventData } from '@academy/contracts';
import { createLogger } from '@academy/kit';
import { createBroker } from '@academy/messaging';

const GATEWAY = process.env.GATEWAY_URL ?? 'http://127.0.0.1:3000';
const MAILDEV = process.env.MAILDEV_URL ?? 'http://127.0.0.1:1080';
const PATH = '/api/v2/notifications/unsubscribe';
const OPT_OUTS = `${GATEWAY}/api/v2/notifications/opt-outs`;

let failures = 0;
function check(what: string, ok: boolean, detail = ''): void {
  if (!ok) failures++;
  console.log(`${ok ? 'PASS' : 'FAIL'}  ${what}${ok || !detail ? '' : `  (${detail})`}`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface MaildevMail {
  to: { address: string }[];
  subject: string;
  headers: Record<string, string>;
}

async function mailTo(address: string): Promise<MaildevMail> {
  for (let attempt = 0; attempt < 60; attempt++) {
    const mails = (await (await fetch(`${MAILDEV}/email`)).json()) as MaildevMail[];
    const found = mails.find((mail) => mail.to.some((to) => to.address.toLowerCase() === address));
    if (found) return found;
    await sleep(500);
  }
  throw new Error(`no mail to ${address} in maildev after 30 s`);
}

function warning(address: string, eventId: number): EventData<'attendance.threshold-crossed'> {
  return {
    studentId: 39,
    studentName: 'Probe Student',
    subjectId: 5,
    subjectName: 'Historia',
    percentage: 70,
    thresholdPercent: 80,
    sessions: 5,
    eventId,
    crossedAt: new Date().toISOString(),
    guardian: { name: 'Probe Guardian', email: address },
    admins: [],
  };
}

async function login(email: string, password: string): Promise<string> {
  const response = await fetch(`${GATEWAY}/api/v2/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  return ((await response.json()) as { accessToken: string }).accessToken;
}

const page = (query: string, init: RequestInit = {}) => fetch(`${GATEWAY}${PATH}?${query}`, { redirect: 'manual', ...init });
const post = (query: string, body = '') => page(query, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });

async function main(): Promise<void> {
  const tag = Date.now();
  const [first, second] = [`probe-a-${tag}@home.test`, `probe-b-${tag}@home.test`];
  const broker = createBroker({ url: urls('dev').rabbitmq, service: 'probe-unsubscribe', logger: createLogger('probe-unsubscribe', 'warn') });
  await broker.start();
  await broker.publish([first, second].map((address, index) => createEnvelope('attendance.threshold-crossed', warning(address, tag + index), { source: 'probe' })));
  await broker.close();

  const [mailA, mailB] = [await mailTo(first), await mailTo(second)];
  for (const [address, mail] of [[first, mailA], [second, mailB]] as const) {
    check(`the mail to ${address} has List-Unsubscribe: <https?://…?token=…>`, /^<https?:\/\/[^>]+\/api\/v2\/notifications\/unsubscribe\?token=[\w.-]+>$/.test(mail.headers['list-unsubscribe'] ?? ''), mail.headers['list-unsubscribe']);
    check(`the mail to ${address} has List-Unsubscribe-Post: List-Unsubscribe=One-Click`, mail.headers['list-unsubscribe-post'] === 'List-Unsubscribe=One-Click', mail.headers['list-unsubscribe-post']);
  }
  const tokenOf = (mail: MaildevMail) => new URL(mail.headers['list-unsubscribe']!.slice(1, -1)).searchParams.get('token')!;
  const [tokenA, tokenB] = [tokenOf(mailA), tokenOf(mailB)];

  const admin = { authorization: `Bearer ${await login('admin@academy.local', 'admin1234')}` };
  const optOutsOf = async (address: string) => ((await (await fetch(`${OPT_OUTS}?recipient=${encodeURIComponent(address)}`, { headers: admin })).json()) as { data: unknown[] }).data;

  // A scanner (Safe Links, a corporate gateway) fetches the link, repeatedly, and follows whatever it finds.
  for (let visit = 0; visit < 3; visit++) {
    const scanned = await page(`token=${tokenA}`, { headers: { 'user-agent': 'Mozilla/5.0 (compatible; SafeLinks-Scanner)' } });
    const html = await scanned.text();
    check(`GET by a scanner (visit ${visit + 1}): 200, a confirm form, strict CSP, no script`, scanned.status === 200 && html.includes('<form method="post"') && !html.includes('<script') && (scanned.headers.get('content-security-policy') ?? '').includes("default-src 'none'"));
  }
  const head = await page(`token=${tokenA}`, { method: 'HEAD' });
  check('HEAD of the link changes nothing either', head.status === 200 || head.status === 405);
  check('after the scanner: no opt-out recorded for the guardian', (await optOutsOf(first)).length === 0);

  // Forged and borrowed tokens.
  const [payloadA, signatureA] = tokenA.split('.');
  const [payloadB, signatureB] = tokenB.split('.');
  const forged = [
    ['a flipped signature', `${payloadA}.${signatureA!.slice(0, -2)}${signatureA!.endsWith('AA') ? 'BB' : 'AA'}`],
    ["A's payload with B's signature (another guardian's token)", `${payloadA}.${signatureB}`],
    ['a payload naming another address, signed by no one', `${Buffer.from(JSON.stringify({ t: 'attendance_warning', a: 'victim@home.test', e: 4102444800 })).toString('base64url')}.${signatureA}`],
    ['a critical type (unsigned)', `${Buffer.from(JSON.stringify({ t: 'payslip_published', a: first, e: 4102444800 })).toString('base64url')}.${signatureA}`],
    ['garbage', 'not-a-token'],
    ['markup', encodeURIComponent('<script>alert(1)</script>')],
  ] as const;
  for (const [what, token] of forged) {
    const get = await page(`token=${token}`);
    const posted = await post(`token=${token}`, 'List-Unsubscribe=One-Click');
    const html = await posted.text();
    check(`${what}: GET and POST are 400 pages, nothing echoed as markup`, get.status === 400 && posted.status === 400 && !html.includes('<script>'), `${get.status}/${posted.status}`);
  }
  const oversized = await post(`token=${'a'.repeat(3000)}.${'b'.repeat(100)}`);
  check('an oversized token: 400', oversized.status === 400, String(oversized.status));
  const ownToken = await post(`token=${payloadB}.${signatureB}`, 'List-Unsubscribe=One-Click');
  check("B's own token unsubscribes B only (not A)", ownToken.status === 200 && (await optOutsOf(first)).length === 0 && (await optOutsOf(second)).length === 1);

  // Repeated tokens: one token is expected.
  for (const query of [`token=${tokenA}&token=${tokenA}`, `token=${tokenA}&token=${tokenB}`]) {
    for (const method of ['GET', 'POST'] as const) {
      const response = method === 'GET' ? await page(query) : await post(query);
      const body = (await response.json().catch(() => ({}))) as { success?: boolean; message?: string };
      check(`${method} with the token twice: 400 "must be given once"`, response.status === 400 && body.success === false && (body.message ?? '').includes('must be given once'), `${response.status} ${body.message}`);
    }
  }
  check('still no opt-out recorded for A', (await optOutsOf(first)).length === 0);

  // The confirm button, twice.
  const done = await post(`token=${tokenA}`);
  check('POST (the button): 200 "Baja confirmada"', done.status === 200 && (await done.text()).includes('Baja confirmada'));
  const again = await post(`token=${tokenA}`);
  check('POST again: 200 "Baja ya registrada", nothing changed', again.status === 200 && (await again.text()).includes('Baja ya registrada'));
  const recorded = await optOutsOf(first);
  check('exactly one opt-out for A, as the admin sees it', recorded.length === 1, JSON.stringify(recorded));

  // The admin's side.
  const asUser = await fetch(`${OPT_OUTS}?recipient=${first}`, { headers: { authorization: `Bearer ${await login('teacher1@academy.local', 'teacher1234')}` } });
  check('a teacher listing opt-outs: 403', asUser.status === 403, String(asUser.status));
  const noLogin = await fetch(`${OPT_OUTS}?recipient=${first}`);
  check('no login: 401', noLogin.status === 401, String(noLogin.status));
  const badType = await fetch(`${OPT_OUTS}?recipient=${first}&type=payslips`, { method: 'DELETE', headers: admin });
  check('DELETE with an unknown type: 400 in the family body', badType.status === 400 && ((await badType.json()) as { success: boolean }).success === false);
  const undo = await fetch(`${OPT_OUTS}?recipient=${first.toUpperCase()}&type=attendance_warning`, { method: 'DELETE', headers: { ...admin, 'idempotency-key': `probe-${tag}` } });
  check('the admin undoes A (address in any case): 200', undo.status === 200, String(undo.status));
  const replay = await fetch(`${OPT_OUTS}?recipient=${first.toUpperCase()}&type=attendance_warning`, { method: 'DELETE', headers: { ...admin, 'idempotency-key': `probe-${tag}` } });
  check('the same Idempotency-Key again: the stored 200, replayed', replay.status === 200 && replay.headers.get('idempotent-replayed') === 'true', `${replay.status} ${replay.headers.get('idempotent-replayed')}`);
  const twice = await fetch(`${OPT_OUTS}?recipient=${first}&type=attendance_warning`, { method: 'DELETE', headers: admin });
  check('undoing it again without a key: 404 OPT_OUT_NOT_FOUND', twice.status === 404 && ((await twice.json()) as { code: string }).code === 'OPT_OUT_NOT_FOUND');
  check('A has no opt-out; B keeps its own', (await optOutsOf(first)).length === 0 && (await optOutsOf(second)).length === 1);

  // A malformed JSON body on the family answers its error body.
  const malformed = await fetch(`${GATEWAY}/api/v2/notifications/preferences`, { method: 'PUT', headers: { ...admin, 'content-type': 'application/json' }, body: '{"preferences": [' });
  const malformedBody = (await malformed.json()) as { success?: boolean; code?: string };
  check('a malformed JSON body on notifications: 400 { success: false, code: MALFORMED_JSON }', malformed.status === 400 && malformedBody.success === false && malformedBody.code === 'MALFORMED_JSON', JSON.stringify(malformedBody));

  console.log(failures ? `${failures} check(s) failed` : 'every check passed');
  process.exitCode = failures ? 1 : 0;
}

await main();
