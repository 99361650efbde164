// `npm run bench:payslips`: the payslips, notifications and gateway services and maildev as their
// own processes, on the test profile's PostgreSQL, RabbitMQ and Redis with databases of their own;
// 300 employees reach payslips' replica as academic's `employee.upserted` events, each with a login
// and one device token in notifications (the recording push provider: no Firebase account).
//  1. GET /api/v2/payslips/my through the gateway, 10 clients: p50/p99 (target p99 < 20 ms), against
//     the floor of the same run: a request proxied and refused before any query (400, bad `year`).
//  2. A 300-page combined PDF uploaded and read (worker threads): pages per second (target < 10 s),
//     while 10 clients keep reading GET /my: p99 during the read against (1), measured in the same run.
//  3. Publish of the 300 payslips: the transaction, every payslip.published relayed to the broker, and
//     every push recorded and every e-mail accepted by maildev's SMTP server (target < 30 s), each
//     exactly once (timestamps of notifications' rows against the publish's start, same clock).
//  4. A 1 MB payslip downloaded by 10 clients (decrypted as it streams), through the gateway and
//     direct, against the same file served plain from disk by a bare Node HTTP server: MB/s and ratios.
// Starts and stops what it needs; about two minutes (one more when the notifications never arrive).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import autocannon from 'autocannon';
import PDFDocument from 'pdfkit';
import pg from 'pg';
import { DEV_TAX_ID_DIGEST_KEY, createEnvelope, demoTaxId, taxIdDigest } from '@academy/contracts';
import { ensureInfra, freePort, stopInfra, waitFor } from '@academy/infra';
import { createLogger } from '@academy/kit';
import { createBroker } from '@academy/messaging';
import { bearer, createTestDatabase, deleteTestQueues, dropTestDatabase, testConfig, testUrls, uniqueName, uniqueQueueName } from '@academy/testing';
import { demoPdf } from '../../apps/payslips/src/seed.ts';
import { spawnMailCatcher, stopChild } from '../dev/processes.ts';
import { deliveryIdOf, type CaughtMail } from '../system/mailbox.ts';
import { figureColumns, figuresOf, FLOOR_SCENARIO, gatewayLimitsOff, jwtEnv, loadAverage, startServiceProcess, vsFloor, waitReady } from './support.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const CONNECTIONS = 10;
const EMPLOYEES = 300;
/** How long the bench waits for the 300 pushes and e-mails (the target is 30 s). */
const DELIVERY_TIMEOUT_S = 60;
/** The service's default (cores − 1, at least 1) unless BENCH_PDF_WORKERS says otherwise. */
const workers = Number(process.env.BENCH_PDF_WORKERS ?? Math.max(1, os.availableParallelism() - 1));

const infra = await ensureInfra('test', (line) => console.log(`[infra] ${line}`));
const base = await testConfig('bench_payslips');
await dropTestDatabase(base.DATABASE_URL);
const databaseUrl = await createTestDatabase('bench_payslips');
const filesDir = mkdtempSync(path.join(os.tmpdir(), 'bench-payslips-'));
const notificationsDatabaseUrl = await createTestDatabase('bench_payslips_notifications');
const replicasQueue = uniqueQueueName('payslips.replicas');
const [emailQueue, realtimeQueue] = [uniqueQueueName('notifications.email'), uniqueQueueName('notifications.incidents')];
const [staticPort, smtpPort, mailWebPort] = [await freePort(), await freePort(), await freePort()];
const shared = {
  // Without FIREBASE_CREDENTIALS_FILE, notifications records pushes (recorded_pushes) instead of sending them.
  FIREBASE_CREDENTIALS_FILE: undefined,
  ...jwtEnv(base),
  REDIS_URL: testUrls.redis,
};
const payslips = await startServiceProcess('payslips', {
  ...shared,
  DATABASE_URL: databaseUrl,
  RABBITMQ_URL: base.RABBITMQ_URL,
  EVENTS_EXCHANGE: base.EVENTS_EXCHANGE,
  REPLICAS_QUEUE: replicasQueue,
  FILES_DIR: filesDir,
  HOUSEKEEPING_INTERVAL_MS: '0',
  PDF_WORKERS: String(workers),
});
const payslipsProcess = payslips.child;
const mailCatcher = spawnMailCatcher({ smtpPort, webPort: mailWebPort }, { logFile: path.join(filesDir, 'maildev.log') }).child;
const mailApi = `http://127.0.0.1:${mailWebPort}`;
const notifications = await startServiceProcess('notifications', {
  ...shared,
  DATABASE_URL: notificationsDatabaseUrl,
  RABBITMQ_URL: base.RABBITMQ_URL,
  EVENTS_EXCHANGE: base.EVENTS_EXCHANGE,
  EMAIL_QUEUE: emailQueue,
  REALTIME_QUEUE: realtimeQueue,
  SOCKET_STREAM: uniqueName('bench:socket.io'),
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  HELD_PUSH_POLL_MS: '0',
  // The service's own pool (DATABASE_POOL_MAX, default 20) unless told: a diagnosis knob, see the README.
  ...(process.env.BENCH_NOTIFICATIONS_POOL_MAX ? { DATABASE_POOL_MAX: process.env.BENCH_NOTIFICATIONS_POOL_MAX } : {}),
});
const notificationsProcess = notifications.child;
const gatewayService = await startServiceProcess('gateway', { ...shared, PAYSLIPS_URL: payslips.url, ...gatewayLimitsOff() });
const gatewayProcess = gatewayService.child;
// The baseline of (4): the same bytes, plain, from disk, by a bare Node server in a process of its own.
const staticFile = path.join(filesDir, 'static.pdf');
const staticProcess = spawn(
  process.execPath,
  [
    '-e',
    `const fs = require('node:fs'); const { pipeline } = require('node:stream');
     require('node:http').createServer((req, res) => { res.setHeader('content-type', 'application/pdf'); pipeline(fs.createReadStream(${JSON.stringify(staticFile)}), res, () => {}); }).listen(${staticPort}, '127.0.0.1');`,
  ],
  { stdio: ['ignore', 'inherit', 'inherit'] },
);
const gateway = gatewayService.url;
const direct = payslips.url;
const db = new pg.Pool({ connectionString: databaseUrl, max: 4 });
const notificationsDb = new pg.Pool({ connectionString: notificationsDatabaseUrl, max: 2 });

const admin = bearer({ role: 'admin', sub: '1' });
const employee = bearer({ role: 'user', sub: '100001', employeeId: 1 });

async function upload(url: string, fields: Record<string, string>, pdf: Buffer): Promise<{ id: number }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'payslip.pdf');
  const res = await fetch(url, { method: 'POST', headers: admin, body: form });
  const body = (await res.json()) as { data: { id: number } };
  if (res.status !== 201 && res.status !== 202) throw new Error(`${url} answered ${res.status}: ${JSON.stringify(body)}`);
  return body.data;
}

/** A PDF of about `bytes` (pages of uncompressed text), for the download. */
async function pdfOfSize(bytes: number): Promise<Buffer> {
  const make = (pages: number) => {
    const doc = new PDFDocument({ compress: false, autoFirstPage: false });
    for (let page = 0; page < pages; page++) doc.addPage().fontSize(6).text('Concepto devengado ..................................... 123,45 €\n'.repeat(60));
    doc.end();
    return buffer(doc);
  };
  const sample = await make(10);
  return make(Math.max(1, Math.round((10 * bytes) / sample.length)));
}

const myLoad = (duration: number, query = '') =>
  autocannon({ url: `${gateway}/api/v2/payslips/my${query}`, connections: CONNECTIONS, duration, headers: employee });

/** The batch's payslip.published events in payslips' outbox: their ids and their payslips' ids. */
async function eventsOfBatch(batchId: number): Promise<{ eventIds: string[]; payslipIds: string[] }> {
  const { rows } = await db.query<{ event: string; payslip: string }>(
    `select envelope->>'id' as event, envelope->'data'->>'payslipId' as payslip from outbox where type = 'payslip.published' and (envelope->'data'->>'batchId')::int = $1`,
    [batchId],
  );
  return { eventIds: rows.map((row) => row.event), payslipIds: rows.map((row) => row.payslip) };
}

/**
 * What notifications delivered for these events: pushes recorded (one per device token; the distinct
 * tokens tell duplicates) and e-mails accepted by the SMTP server, and the instant (epoch ms) of the last of each.
 */
async function notificationsDelivered({ eventIds, payslipIds }: { eventIds: string[]; payslipIds: string[] }) {
  const [push] = (
    await notificationsDb.query<{ pushes: number; tokens: number; last: number | null }>(
      `with ours as (select * from recorded_pushes where message->'data'->>'type' = 'payslip_published' and message->'data'->>'payslipId' = any($1::text[]))
       select coalesce(sum(token_count), 0)::int as pushes, (select count(distinct t)::int from ours, jsonb_array_elements_text(tokens) t) as tokens,
              (extract(epoch from max(created_at)) * 1000)::float8 as last
         from ours`,
      [payslipIds],
    )
  ).rows;
  const mail = (
    await notificationsDb.query<{ id: number; sent: number }>(
      `select id::int as id, (extract(epoch from sent_at) * 1000)::float8 as sent from deliveries where channel = 'email' and event_id = any($1::text[]) and status = 'sent'`,
      [eventIds],
    )
  ).rows;
  return {
    pushes: push!.pushes,
    pushedTokens: push!.tokens,
    lastPushAt: push!.last,
    mails: mail.length,
    lastMailAt: mail.length ? Math.max(...mail.map((row) => row.sent)) : null,
    deliveryIds: mail.map((row) => row.id),
  };
}

try {
  await waitReady('payslips', `${direct}/readyz`);
  await waitReady('notifications', `${notifications.url}/readyz`);
  await waitReady('maildev', `${mailApi}/email`, 30_000);
  await waitReady('gateway', `${gateway}/healthz`, 30_000);
  // The employees as academic announces them: employee.upserted (version 3, the tax id's digest under the dev key payslips holds) into its replica.
  const broker = createBroker({ url: base.RABBITMQ_URL, service: 'bench-payslips', logger: createLogger('bench-payslips', 'warn'), exchange: base.EVENTS_EXCHANGE });
  await broker.start();
  await broker.publish(
    Array.from({ length: EMPLOYEES }, (_, i) =>
      createEnvelope(
        'employee.upserted',
        { id: i + 1, userId: 100_001 + i, name: `Employee ${i + 1}`, email: `employee${i + 1}@academy.test`, active: true, taxIdDigest: taxIdDigest(demoTaxId(i + 1), DEV_TAX_ID_DIGEST_KEY), payrollCode: null },
        { source: 'academic' },
      ),
    ),
  );
  await broker.close();
  await waitFor('the employees replica', async () => (await db.query(`select count(*)::int as n from employees`)).rows[0].n === EMPLOYEES, 60_000, 100);
  // Each employee's login has one device (notifications' device_tokens, as POST /devices writes them).
  await notificationsDb.query(
    `insert into device_tokens (user_id, device_id, token, platform, created_at, updated_at, last_seen_at)
     select 100000 + g, 'phone', 'bench-token-' || g, case when g % 2 = 0 then 'ios' else 'android' end, now(), now(), now() from generate_series(1, $1) g`,
    [EMPLOYEES],
  );
  // Employee 1 has two years of monthly payslips.
  for (let month = 0; month < 24; month++) {
    const first = new Date(Date.UTC(2024, month, 1));
    const last = new Date(Date.UTC(2024, month + 1, 0));
    const period = { periodStart: first.toISOString().slice(0, 10), periodEnd: last.toISOString().slice(0, 10), label: `Nómina ${first.toISOString().slice(0, 7)}` };
    await upload(`${direct}/api/v2/payslips`, { employeeId: '1', ...period }, await demoPdf([{ employee: { id: 1, name: 'Employee 1', taxId: demoTaxId(1) }, period }]));
  }
  console.log(`seeded ${EMPLOYEES} employees (through employee.upserted), each with a device; employee 1 with 24 payslips`);

  // 1. GET /my, no batch running.
  console.log(`\n1. GET /api/v2/payslips/my through the gateway, ${CONNECTIONS} clients, ${DURATION_S} s…`);
  await myLoad(1);
  const idle = await myLoad(DURATION_S);
  // The floor: the same route and token, refused by the schema before any query.
  const floor = await myLoad(DURATION_S, '?year=abc');
  if (!floor.statusCodeStats?.['400']) throw new Error(`the baseline GET /my?year=abc did not answer 400: ${JSON.stringify(floor.statusCodeStats)}`);

  // 2. A 300-page batch read while GET /my is under the same load.
  const period = { periodStart: '2026-02-01', periodEnd: '2026-02-28', label: 'Nómina febrero 2026' };
  const combined = await demoPdf(Array.from({ length: EMPLOYEES }, (_, i) => ({ employee: { id: i + 1, name: `Employee ${i + 1}`, taxId: demoTaxId(i + 1) }, period })));
  console.log(`2. a ${EMPLOYEES}-page combined PDF (${(combined.length / 1024).toFixed(0)} KB) uploaded through the gateway and read, with GET /my under load meanwhile…`);
  const uploadStarted = performance.now();
  const during = myLoad(60);
  const batch = await upload(`${gateway}/api/v2/payslips/batches`, { ...period, matchBy: 'taxId' }, combined);
  const accepted = performance.now() - uploadStarted;
  const ready = await waitFor(
    'the batch read',
    async () => {
      const res = (await (await fetch(`${direct}/api/v2/payslips/batches/${batch.id}`, { headers: admin })).json()) as { data: { status: string; matches: unknown[] } };
      return res.data.status !== 'reading' && res.data;
    },
    120_000,
    50,
  );
  const readSeconds = (performance.now() - uploadStarted) / 1000;
  (during as unknown as { stop(): void }).stop();
  const busy = await during;
  if (ready.status !== 'ready' || ready.matches.length !== EMPLOYEES) throw new Error(`the batch is ${ready.status} with ${ready.matches.length} matches`);

  // 3. Publish, and every event relayed.
  const publishStarted = performance.now();
  const publishStartedAt = performance.timeOrigin + publishStarted;
  const published = await fetch(`${gateway}/api/v2/payslips/batches/${batch.id}/publish`, { method: 'POST', headers: admin });
  if (published.status !== 200) throw new Error(`publish answered ${published.status}`);
  const publishMs = performance.now() - publishStarted;
  await waitFor(
    'every payslip.published relayed',
    async () => (await db.query(`select count(*)::int as n from outbox where published_at is null`)).rows[0].n === 0,
    60_000,
    50,
  );
  const relayedMs = performance.now() - publishStarted;
  console.log(`3. published; waiting for every push and e-mail (up to ${DELIVERY_TIMEOUT_S} s)…`);
  const batchEvents = await eventsOfBatch(batch.id);
  if (batchEvents.eventIds.length !== EMPLOYEES) throw new Error(`the batch recorded ${batchEvents.eventIds.length} payslip.published events`);
  let delivered = await notificationsDelivered(batchEvents);
  const deliveryDeadline = performance.now() + DELIVERY_TIMEOUT_S * 1000;
  while ((delivered.pushes < EMPLOYEES || delivered.mails < EMPLOYEES) && performance.now() < deliveryDeadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    delivered = await notificationsDelivered(batchEvents);
  }
  // What notifications' database connections are doing when the wait ends (a stall shows here).
  const stalled = (
    await notificationsDb.query<{ state: string; query: string; n: number }>(
      `select state, left(regexp_replace(query, '\\s+', ' ', 'g'), 60) as query, count(*)::int as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle' group by 1, 2 order by 3 desc`,
    )
  ).rows;
  // Sent means accepted by maildev's SMTP server; it lists the mail a moment later. Then a second
  // more, so that a duplicate on its way is counted too.
  const ours = new Set(delivered.deliveryIds);
  const caught = async () => ((await (await fetch(`${mailApi}/email`)).json()) as CaughtMail[]).filter((mail) => ours.has(deliveryIdOf(mail) ?? -1));
  await waitFor('the sent mails in maildev', async () => (await caught()).length >= delivered.mails, 10_000, 100).catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  delivered = await notificationsDelivered(batchEvents);
  const mails = await caught();
  const addresses = new Set(mails.map((mail) => mail.to.map((to) => to.address.toLowerCase()).join(',')));
  const pushSeconds = delivered.lastPushAt === null ? null : (delivered.lastPushAt - publishStartedAt) / 1000;
  const mailSeconds = delivered.lastMailAt === null ? null : (delivered.lastMailAt - publishStartedAt) / 1000;
  const allDelivered = delivered.pushes === EMPLOYEES && delivered.pushedTokens === EMPLOYEES && mails.length === EMPLOYEES && addresses.size === EMPLOYEES;

  // 4. A 1 MB download, 10 clients: through the gateway, direct, and the plain static file.
  const big = await pdfOfSize(1024 * 1024);
  writeFileSync(staticFile, big);
  const { id: bigId } = await upload(`${direct}/api/v2/payslips`, { employeeId: '1', periodStart: '2026-03-01', periodEnd: '2026-03-31', label: 'Paga extra' }, big);
  await waitReady('static server', `http://127.0.0.1:${staticPort}/`, 10_000);
  console.log(`4. a ${(big.length / 1024 / 1024).toFixed(2)} MB download, ${CONNECTIONS} clients, ${DURATION_S} s each…`);
  const download = (url: string, headers: Record<string, string> = {}) => autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  const viaGateway = await download(`${gateway}/api/v2/payslips/${bigId}/file`, employee);
  const viaService = await download(`${direct}/api/v2/payslips/${bigId}/file`, employee);
  const plain = await download(`http://127.0.0.1:${staticPort}/`);
  // Each download checked once: the bytes are the PDF uploaded.
  const check = Buffer.from(await (await fetch(`${gateway}/api/v2/payslips/${bigId}/file`, { headers: employee })).arrayBuffer());
  if (!check.equals(big)) throw new Error('the downloaded payslip is not the uploaded PDF');

  const errors = (result: autocannon.Result) => result.errors + result.timeouts + result.non2xx;
  const mbps = (result: autocannon.Result) => +(result.throughput.average / 1024 / 1024).toFixed(1);
  console.log('\nresults');
  const myRow = (result: autocannon.Result, p99Under: number) => ({
    ...figureColumns(figuresOf(result)),
    'p99 vs floor': +vsFloor(result.latency.p99, floor.latency.p99).toFixed(1),
    target: `p99 < ${p99Under} ms`,
    met: result.latency.p99 < p99Under,
  });
  console.table({
    [FLOOR_SCENARIO]: { ...figureColumns(figuresOf(floor, 400)), 'p99 vs floor': 1, target: '', met: '' },
    'GET /my, no batch': myRow(idle, 20),
    'GET /my, batch being read': myRow(busy, 50),
  });
  console.table({
    [`read ${EMPLOYEES} pages`]: { seconds: +readSeconds.toFixed(2), 'pages/s': Math.round(EMPLOYEES / readSeconds), target: '< 10 s', met: readSeconds < 10 },
    '202 answered after': { seconds: +(accepted / 1000).toFixed(2), 'pages/s': '', target: '', met: '' },
    [`publish ${EMPLOYEES} payslips`]: { seconds: +(publishMs / 1000).toFixed(2), 'pages/s': '', target: '', met: '' },
    'every event relayed': { seconds: +(relayedMs / 1000).toFixed(2), 'pages/s': '', target: '', met: '' },
  });
  const seconds = (value: number | null) => (value === null ? 'none' : +value.toFixed(2));
  console.table({
    [`publish → last push (recording provider)`]: {
      seconds: seconds(pushSeconds),
      delivered: delivered.pushes,
      duplicates: delivered.pushes - delivered.pushedTokens,
      target: `${EMPLOYEES} once, < 30 s`,
      met: delivered.pushes === EMPLOYEES && delivered.pushedTokens === EMPLOYEES && pushSeconds !== null && pushSeconds < 30,
    },
    [`publish → last e-mail (maildev)`]: {
      seconds: seconds(mailSeconds),
      delivered: mails.length,
      duplicates: mails.length - addresses.size,
      target: `${EMPLOYEES} once, < 30 s`,
      met: mails.length === EMPLOYEES && addresses.size === EMPLOYEES && mailSeconds !== null && mailSeconds < 30,
    },
  });
  if (!allDelivered) {
    console.log(
      `not every notification arrived once within ${DELIVERY_TIMEOUT_S} s: ${delivered.pushes} pushes to ${delivered.pushedTokens} devices, ` +
        `${delivered.mails} e-mails sent, ${mails.length} in maildev to ${addresses.size} addresses`,
    );
    console.log(`notifications' connections meanwhile (pool ${process.env.BENCH_NOTIFICATIONS_POOL_MAX ?? 'default'}): ${stalled.map((row) => `${row.n} ${row.state}: ${row.query}`).join('; ') || 'none'}`);
  }
  console.table({
    'static file, bare Node': { 'MB/s': mbps(plain), 'req/s': Math.round(plain.requests.average), 'p99 ms': plain.latency.p99, errors: errors(plain), 'vs static': 1 },
    'payslip, direct': { 'MB/s': mbps(viaService), 'req/s': Math.round(viaService.requests.average), 'p99 ms': viaService.latency.p99, errors: errors(viaService), 'vs static': +(mbps(viaService) / mbps(plain)).toFixed(2) },
    'payslip, through the gateway': {
      'MB/s': mbps(viaGateway),
      'req/s': Math.round(viaGateway.requests.average),
      'p99 ms': viaGateway.latency.p99,
      errors: errors(viaGateway),
      'vs static': +(mbps(viaGateway) / mbps(plain)).toFixed(2),
    },
  });
  console.log(`p99 of GET /my while the batch was read: ${busy.latency.p99} ms, against ${idle.latency.p99} ms without (×${(busy.latency.p99 / Math.max(1, idle.latency.p99)).toFixed(1)}).`);
  console.log(`PDF worker threads: ${workers}; load average during the run: ${loadAverage()} on ${os.cpus().length} cores`);
} finally {
  await Promise.all([gatewayProcess, payslipsProcess, notificationsProcess, staticProcess, mailCatcher].map((child) => stopChild(child)));
  await db.end();
  await notificationsDb.end();
  await dropTestDatabase(databaseUrl);
  await dropTestDatabase(notificationsDatabaseUrl);
  await deleteTestQueues(base.EVENTS_EXCHANGE, [replicasQueue, emailQueue, realtimeQueue]).catch(() => undefined);
  rmSync(filesDir, { recursive: true, force: true });
  if (infra.started.length) await stopInfra('test', infra.started);
}
