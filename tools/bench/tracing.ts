// `npm run bench:tracing`: what tracing costs, same run, against a local OTLP receiver in a process of
// its own (a counting one; BENCH_TRACING_RECEIVER=dev: tools/dev/otlp-receiver.ts, as `npm start` has
// it), whose CPU is printed apart. Two parts, each printing the throughput with tracing at 100% and at
// 10% as a ratio of tracing off (targets: ≥ 90% and ≥ 97%) and the CPU per operation:
//
// - gateway: academic and three gateways in front of it, as processes started like `npm start`
//   starts them (tools/system/harness.ts): a gateway with tracing off (no endpoint: the preload does
//   nothing), one tracing 100% of requests and one 10%. Academic exports too, following the gateway's
//   decision (parent-based; what comes untraced from the off gateway stays untraced). Rounds of
//   GET /api/v2/auth/me (gateway → academic: JWT check, a PostgreSQL read) alternate the three.
// - events: the event pipeline of bench:events (outbox committed → relay → RabbitMQ → consumer at
//   its default, waiting events sharing a transaction; handler + inbox), in a child process per
//   round and setting (started with the apps' node flags and the tracing preload, as an app is): BENCH_TRACING_EVENTS events
//   written by `recordEvent`, ten per transaction, each transaction the root span of a trace (a
//   request's, sampled by the ratio);
//   then the clock runs from the relay's start to the last inbox row. A traced event costs a stored
//   trace context, a publish span, a process span and the handler's query spans, all exported.
//
// BENCH_TRACING_ONLY=gateway|events runs one part; BENCH_ROUNDS, BENCH_DURATION, BENCH_CONNECTIONS,
// BENCH_TRACING_EVENTS shorten or lengthen them; BENCH_CPU_PROF=<dir> profiles the three gateways,
// academic and each events child (V8 CPU profiles, written as each exits). Starts the test servers if
// needed (events part).
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import amqp from 'amqplib';
import autocannon from 'autocannon';
import { createOrm, dropDatabase, ensureDatabase } from '@academy/db';
import { ensureInfra, stopInfra, urls } from '@academy/infra';
import { createLogger, flushTraces, inSpan } from '@academy/kit';
import { consume, createBroker, DEFAULT_RETRY_DELAYS_MS, dlqName, messagingEntities, recordEvent, retryQueueName, startOutboxRelay } from '@academy/messaging';
import { DEMO, startTestSystem, type SystemProcess } from '../system/harness.ts';
import { login } from '../system/client.ts';
import { decodeProtobufRequest, readSpans } from '../dev/otlp-receiver.ts';
import { NODE_FLAGS, stopChild } from '../dev/processes.ts';
import { cpuMs, median } from './support.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const EVENTS = Number(process.env.BENCH_TRACING_EVENTS ?? 4000);
const EVENTS_PER_TRANSACTION = 10;
const ONLY = process.env.BENCH_TRACING_ONLY;

const SETTINGS = { 'tracing off': null, 'tracing 100%': 1, 'tracing 10%': 0.1 } as const;
type Setting = keyof typeof SETTINGS;
const NAMES = Object.keys(SETTINGS) as Setting[];

/** The receiver as the bench uses it: where to send, where it writes, its process. */
type OtlpReceiver = { url: string; pid: number; spans(): Promise<Record<string, number>>; close(): Promise<void> };

const traced = (receiver: OtlpReceiver, ratio: number) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: String(ratio) });
const pct = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;

/**
 * One measurement: throughput, the CPU the traced process spent per operation (ms; steadier than
 * throughput on a shared machine), and what else spent CPU per operation meanwhile (the receiver; academic).
 */
type Figure = { rate: number; cpuMs: number; others?: Record<string, number> };

/** Runs `measure` for each setting, `ROUNDS` times, the order rotated per round; the figures by setting. */
async function rotate(measure: (name: Setting) => Promise<Figure>): Promise<Record<Setting, Figure[]>> {
  const figures = Object.fromEntries(NAMES.map((name) => [name, [] as Figure[]])) as Record<Setting, Figure[]>;
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < NAMES.length; i++) {
      const name = NAMES[(i + round) % NAMES.length];
      figures[name].push(await measure(name));
    }
  }
  return figures;
}

function printRatios(what: string, unit: string, cpuUnit: string, figures: Record<Setting, Figure[]>): void {
  const rates = (name: Setting) => figures[name].map((figure) => figure.rate);
  const cpu = (name: Setting) => median(figures[name].map((figure) => figure.cpuMs));
  for (const name of NAMES) {
    console.log(`${name.padEnd(14)} ${median(rates(name)).toFixed(0).padStart(7)} ${unit} (median; rounds ${rates(name).map((rate) => rate.toFixed(0)).join(', ')})   CPU ${cpu(name).toFixed(3)} ms ${cpuUnit}`);
  }
  const off = median(rates('tracing off'));
  console.log(`${what}: throughput with tracing at 100%: ${pct(median(rates('tracing 100%')) / off)} of off (target >= 90%)`);
  console.log(`${what}: throughput with tracing at 10%:  ${pct(median(rates('tracing 10%')) / off)} of off (target >= 97%)`);
  // Each round against the same round's off: what the noise of this machine does to one ratio.
  const perRound = (name: Setting) => figures[name].map((figure, round) => pct(figure.rate / figures['tracing off'][round].rate)).join(', ');
  console.log(`${what}: per round, 100%: ${perRound('tracing 100%')}; 10%: ${perRound('tracing 10%')}`);
  console.log(`${what}: CPU ${cpuUnit} of the traced process, 100%: ${pct(cpu('tracing 100%') / cpu('tracing off'))} of off; 10%: ${pct(cpu('tracing 10%') / cpu('tracing off'))}`);
  for (const other of Object.keys(figures['tracing off'][0]?.others ?? {})) {
    const of = (name: Setting) => median(figures[name].map((figure) => figure.others?.[other] ?? 0)).toFixed(3);
    console.log(`${what}: CPU of ${other} ${cpuUnit.replace(/ \(.*\)$/, '')}, off / 100% / 10%: ${NAMES.map(of).join(' / ')} ms`);
  }
}

/** BENCH_CPU_PROF=<dir>: `NODE_OPTIONS` that make a process write a V8 CPU profile there when it exits (its name starts with `name`). */
const profiling = (name: string): Record<string, string> =>
  process.env.BENCH_CPU_PROF ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)} --cpu-prof-name=${name}-${Date.now()}.cpuprofile` } : {};

async function gatewayPart(receiver: OtlpReceiver): Promise<void> {
  const limits = { RATE_LIMIT_USER_PER_MINUTE: '100000000', RATE_LIMIT_IP_PER_MINUTE: '100000000' };
  const system = await startTestSystem({
    name: 'benchtracing',
    redisDb: 11,
    // hours-bank and incidents only because the harness's seed waits for their replicas.
    backends: ['academic', 'hours-bank', 'incidents'],
    // Academic's own roots (requests with no parent) are not sampled: it records only what a tracing gateway decided to.
    env: { academic: { ...traced(receiver, 1), OTEL_TRACES_SAMPLER: 'parentbased_always_off', ...profiling('academic') }, gateway: limits },
    log: (line) => console.log(`[system] ${line}`),
  });
  try {
    // Three gateways started alike (the harness's own one served the seed): only their tracing differs.
    const gateways: Record<Setting, SystemProcess> = {
      'tracing off': await system.addGateway(0, { ...limits, ...profiling('gateway-off') }),
      'tracing 100%': await system.addGateway(0, { ...limits, ...traced(receiver, 1), ...profiling('gateway-100') }),
      'tracing 10%': await system.addGateway(0, { ...limits, ...traced(receiver, 0.1), ...profiling('gateway-10') }),
    };
    const { accessToken } = await login(system.gateway, DEMO.admin);
    const headers = { authorization: `Bearer ${accessToken}` };
    const run = (url: string, duration: number) =>
      autocannon({ url: `${url}/api/v2/auth/me`, headers, connections: CONNECTIONS, duration, workers: 1 }) as unknown as Promise<autocannon.Result>;
    for (const gateway of Object.values(gateways)) await run(gateway.url, 2);

    console.log(`\ngateway: GET /api/v2/auth/me, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION_S} s each (order rotated per round), load average ${loadavg()[0].toFixed(1)}`);
    let errors = 0;
    const academic = system.process('academic', 0);
    const figures = await rotate(async (name) => {
      const before = [cpuMs(gateways[name].pid), cpuMs(academic.pid), cpuMs(receiver.pid)];
      const result = await run(gateways[name].url, DURATION_S);
      errors += result.errors + result.non2xx;
      const per = (now: number, i: number) => (now - before[i]!) / Math.max(1, result.requests.total);
      return {
        rate: result.requests.total / DURATION_S,
        cpuMs: per(cpuMs(gateways[name].pid), 0),
        others: { academic: per(cpuMs(academic.pid), 1), 'the receiver': per(cpuMs(receiver.pid), 2) },
      };
    });
    printRatios('gateway', 'req/s', 'per request (gateway)', figures);
    await new Promise((resolve) => setTimeout(resolve, 6000));
    const spans = await receiver.spans();
    console.log(`gateway: ${errors} errors; ${spans.gateway ?? 0} gateway spans and ${spans.academic ?? 0} academic spans received`);
  } finally {
    await system.stop();
  }
}

async function eventsPart(receiver: OtlpReceiver): Promise<void> {
  const infra = await ensureInfra('test', (line) => console.log(`[infra] ${line}`), ['postgres', 'rabbitmq']);
  try {
    console.log(`\nevents: ${EVENTS} events (${EVENTS_PER_TRANSACTION} a transaction, each transaction a trace), outbox → relay → broker → consumer (its default: waiting events share a transaction); ${ROUNDS} rounds, a child process each, order rotated; load average ${loadavg()[0].toFixed(1)}`);
    const figures = await rotate(async (name) => {
      const ratio = SETTINGS[name];
      const env = { ...process.env, OTEL_SERVICE_NAME: `bench-events-${name.replace(/\W+/g, '')}`, ...(ratio === null ? { OTEL_EXPORTER_OTLP_ENDPOINT: '' } : traced(receiver, ratio)) };
      const before = cpuMs(receiver.pid);
      const figure = await runEventsChild(env);
      // The receiver's CPU over the child's whole life (its writes' spans included), per event.
      return { ...figure, others: { 'the receiver': (cpuMs(receiver.pid) - before) / EVENTS } };
    });
    printRatios('events', 'events/s', 'per event (the pipeline process)', figures);
    const spans = await receiver.spans();
    const count = (service: string) => spans[service] ?? 0;
    console.log(`events: spans received: 100% ${count('bench-events-tracing100')}, 10% ${count('bench-events-tracing10')}, off ${count('bench-events-tracingoff')}`);
  } finally {
    if (infra.started.length) await stopInfra('test', infra.started);
  }
}

/** One round of the events part in a child process started with the tracing preload; its events/s and CPU per event. */
function runEventsChild(env: NodeJS.ProcessEnv): Promise<Figure> {
  const root = path.resolve(import.meta.dirname, '../..');
  // BENCH_CPU_PROF=<dir>: each child writes a V8 CPU profile there (its file names the setting's service name).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF, '--cpu-prof-name', `${env.OTEL_SERVICE_NAME}-${Date.now()}.cpuprofile`] : [];
  const child = spawn(process.execPath, [...profile, ...NODE_FLAGS, '--import', path.join(root, 'libs/telemetry/src/register.ts'), import.meta.filename, 'events-child'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      const result = /^events-per-second (\d+(?:\.\d+)?) cpu-ms-per-event (\d+(?:\.\d+)?)$/m.exec(out);
      if (code === 0 && result) resolve({ rate: Number(result[1]), cpuMs: Number(result[2]) });
      else reject(new Error(`events child exited with ${code}: ${out}`));
    });
  });
}

/** The child: its own database, exchange and queue; writes, then times the pipeline's drain. */
async function eventsChild(): Promise<void> {
  const { postgres, rabbitmq } = urls('test');
  const suffix = randomBytes(4).toString('hex');
  const databaseUrl = `${postgres}/bench_tracing_${suffix}`;
  const exchange = `academy.events.bench-tracing-${suffix}`;
  const queue = `bench-tracing-${suffix}.pipeline`;
  const logger = createLogger('bench-tracing', 'warn');
  await ensureDatabase(databaseUrl);
  const orm = await createOrm({ clientUrl: databaseUrl, entities: messagingEntities, migrations: [], poolMax: 20 });
  const broker = createBroker({ url: rabbitmq, service: 'bench-tracing', logger, exchange });
  try {
    await orm.schema.create();
    await orm.em.getConnection().execute(`create table bench_effects (event_id uuid primary key, employee_id int not null)`);
    await broker.start();
    const consumer = await consume(broker, {
      orm,
      queue,
      prefetch: 200,
      handlers: {
        'employee.deleted': async (em, event) => {
          await em.getConnection().execute(`insert into bench_effects (event_id, employee_id) values (?, ?)`, [event.id, event.data.id], 'run', em.getTransactionContext());
        },
      },
    });
    let employeeId = 0;
    for (let written = 0; written < EVENTS; written += EVENTS_PER_TRANSACTION) {
      await inSpan('bench write', { root: true }, async () => {
        const em = orm.em.fork();
        for (let i = 0; i < EVENTS_PER_TRANSACTION; i++) recordEvent(em, 'employee.deleted', { id: ++employeeId }, { source: 'bench' });
        await em.flush();
      });
    }
    const handled = async () => Number((await orm.em.fork().getConnection().execute<{ count: string }[]>(`select count(*) as count from inbox where consumer = ?`, [queue]))[0].count);
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const relay = startOutboxRelay({ orm, broker });
    const deadline = Date.now() + 300_000;
    while ((await handled()) < EVENTS) {
      if (Date.now() > deadline) throw new Error(`only ${await handled()} of ${EVENTS} events handled after 300 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const elapsedMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    await relay.stop();
    await consumer.stop();
    await flushTraces();
    console.log(`events-per-second ${((EVENTS / elapsedMs) * 1000).toFixed(1)} cpu-ms-per-event ${((cpu.user + cpu.system) / 1000 / EVENTS).toFixed(4)}`);
  } finally {
    const connection = await amqp.connect(rabbitmq);
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    for (const name of [queue, dlqName(queue), ...DEFAULT_RETRY_DELAYS_MS.map((delay) => retryQueueName(queue, delay)), `${exchange}.unrouted`]) await channel.deleteQueue(name).catch(() => undefined);
    await channel.deleteExchange(exchange).catch(() => undefined);
    await channel.deleteExchange(`${exchange}.unrouted`).catch(() => undefined);
    await connection.close().catch(() => undefined);
    await broker.close();
    await orm.close();
    await dropDatabase(databaseUrl);
  }
}

if (process.argv[2] === 'events-child') {
  await eventsChild();
  process.exit(0);
}
if (process.argv[2] === 'receiver') countingReceiver();
else await main();

/**
 * The bench's receiver: takes OTLP exports and counts their spans by service: protobuf ones decoded
 * (the services' default encoding), JSON ones without decoding (a scan for each span's
 * `startTimeUnixNano` key and the resource's `service.name`). A
 * collector ingests spans in a process of its own, usually on another machine; the dev receiver
 * (tools/dev/otlp-receiver.ts: JSON.parse, a JSON line per span, a synchronous append) cost the
 * shared 2 cores 0.1–0.4 ms per proxied request, a tenth of the gateway's own CPU (README).
 */
function countingReceiver(): void {
  const counts: Record<string, number> = {};
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/counts') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(counts));
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (String(req.headers['content-type']).startsWith('application/x-protobuf')) {
        // Protobuf (the services' default encoding): decoded, the spans counted by their resource's service.
        for (const { resource, scopeSpans } of decodeProtobufRequest(Buffer.concat(chunks)).resourceSpans ?? []) {
          const service = String(resource?.attributes?.find((kv) => kv.key === 'service.name')?.value.stringValue ?? '?');
          counts[service] = (counts[service] ?? 0) + (scopeSpans ?? []).reduce((sum, scope) => sum + (scope.spans?.length ?? 0), 0);
        }
        return res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      }
      const body = Buffer.concat(chunks).toString('latin1');
      const service = /"key":"service\.name","value":\{"stringValue":"([^"]*)"/.exec(body)?.[1] ?? '?';
      let spans = 0;
      for (let at = body.indexOf('"startTimeUnixNano"'); at >= 0; at = body.indexOf('"startTimeUnixNano"', at + 1)) spans++;
      counts[service] = (counts[service] ?? 0) + spans;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1', () => console.log(`OTLP/HTTP receiver on http://127.0.0.1:${(server.address() as AddressInfo).port}, counting`));
}

/**
 * The receiver in a process of its own, so that its CPU is measured apart from the bench's (autocannon
 * runs in this one): the counting one, or with BENCH_TRACING_RECEIVER=dev the one `npm start` runs.
 */
async function startReceiverProcess(file: string): Promise<OtlpReceiver> {
  const dev = process.env.BENCH_TRACING_RECEIVER === 'dev';
  const args = dev ? [path.resolve(import.meta.dirname, '../dev/otlp-receiver.ts'), '0', file] : [import.meta.filename, 'receiver'];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.on('exit', (code) => reject(new Error(`the OTLP receiver exited with ${code}: ${out}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /receiver on (http:\/\/\S+),/.exec(out);
      if (found) resolve(found[1]);
    });
  });
  child.removeAllListeners('exit');
  const spans = async (): Promise<Record<string, number>> => {
    if (!dev) return (await fetch(`${url}/counts`)).json() as Promise<Record<string, number>>;
    const counts: Record<string, number> = {};
    for (const span of readSpans(file)) counts[span.service] = (counts[span.service] ?? 0) + 1;
    return counts;
  };
  return { url, pid: child.pid!, spans, close: () => stopChild(child, 5000) };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'academy-bench-tracing-'));
  const receiver = await startReceiverProcess(path.join(dir, 'spans.jsonl'));
  try {
    if (ONLY !== 'events') await gatewayPart(receiver);
    if (ONLY !== 'gateway') await eventsPart(receiver);
  } finally {
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(0);
}
