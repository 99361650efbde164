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
//   then (the writes' spans flushed) the clock runs from the relay's start to the last inbox row. A traced event costs a stored
//   trace context, a publish span, a process span and the handler's query spans, all exported.
//
// Rounds are short and paired: each round runs every setting back to back (order rotated per round),
// and each traced setting is printed as the median of its ratios to the same round's "off", with their
// spread, for throughput and for the CPU per operation of every process involved (the traced one,
// academic, the receiver apart).
//
// BENCH_TRACING_AB=protocol compares OTLP protobuf with JSON at 100 % (both parts); BENCH_TRACING_AB=flag
// runs the events children with and without `--experimental-async-context-frame`, off / 100 % / 10 %
// (the gateway part's processes keep the harness's flags).
// BENCH_TRACING_ONLY=gateway|events runs one part; BENCH_ROUNDS (6), BENCH_DURATION (3 s), BENCH_CONNECTIONS,
// BENCH_TRACING_EVENTS (3000) shorten or lengthen them; BENCH_CPU_PROF=<dir> profiles the three gateways,
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
import { decodeProtobufRequest, readSpans, spansOf, type OtlpRequest } from '../dev/otlp-receiver.ts';
import { NODE_FLAGS, stopChild } from '../dev/processes.ts';
import { cpuMs, median } from './support.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const EVENTS = Number(process.env.BENCH_TRACING_EVENTS ?? 3000);
const EVENTS_PER_TRANSACTION = 10;
const ONLY = process.env.BENCH_TRACING_ONLY;
const AB = process.env.BENCH_TRACING_AB;

/**
 * One setting of a run: its sampling ratio (null: tracing off) and what else it changes (the OTLP
 * encoding; the node flags of the events child). The first of a run is the baseline the others are
 * paired with, round by round.
 */
type Setting = { name: string; ratio: number | null; env?: Record<string, string>; nodeFlags?: string[] };
const WITHOUT_FRAME = NODE_FLAGS.filter((flag) => flag !== '--experimental-async-context-frame');
const SETTINGS: Setting[] =
  AB === 'protocol'
    ? [
        { name: 'tracing off', ratio: null },
        { name: '100% protobuf', ratio: 1, env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' } },
        { name: '100% json', ratio: 1, env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' } },
      ]
    : AB === 'flag'
      ? [
          { name: 'tracing off', ratio: null },
          { name: 'off, no flag', ratio: null, nodeFlags: WITHOUT_FRAME },
          { name: '100%', ratio: 1 },
          { name: '100%, no flag', ratio: 1, nodeFlags: WITHOUT_FRAME },
          { name: '10%', ratio: 0.1 },
          { name: '10%, no flag', ratio: 0.1, nodeFlags: WITHOUT_FRAME },
        ]
      : [
          { name: 'tracing off', ratio: null },
          { name: 'tracing 100%', ratio: 1 },
          { name: 'tracing 10%', ratio: 0.1 },
        ];
const TARGETS: Record<string, number> = { 'tracing 100%': 0.9, 'tracing 10%': 0.97 };

/** The receiver as the bench uses it: where to send, where it writes, its process. */
type OtlpReceiver = { url: string; pid: number; spans(): Promise<Record<string, number>>; names(): Promise<Record<string, number>>; close(): Promise<void> };

const traced = (receiver: OtlpReceiver, ratio: number) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: String(ratio) });
const pct = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;

/**
 * One measurement: throughput, the CPU the traced process spent per operation (ms; steadier than
 * throughput on a shared machine), and what else spent CPU per operation meanwhile (the receiver; academic).
 */
type Figure = { rate: number; cpuMs: number; others?: Record<string, number> };

/**
 * Runs `measure` for every setting in short rounds, each round all settings back to back (the order
 * rotated per round: ABC, BCA, CAB…), so that each traced setting is paired with the baseline of the
 * same round, a few seconds apart; the figures by setting, one per round.
 */
async function rotate(measure: (setting: Setting) => Promise<Figure>): Promise<Figure[][]> {
  const figures = SETTINGS.map(() => [] as Figure[]);
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < SETTINGS.length; i++) {
      const at = (i + round) % SETTINGS.length;
      figures[at]!.push(await measure(SETTINGS[at]!));
    }
  }
  return figures;
}

/** The median of the values and their spread (the middle half, then min–max), as a percentage when `asPct`. */
function spread(values: number[], format: (value: number) => string): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.round(q * (sorted.length - 1)))]!;
  return `${format(median(values))} (middle half ${format(at(0.25))}–${format(at(0.75))}, all ${format(sorted[0]!)}–${format(sorted.at(-1)!)})`;
}

/**
 * Prints, per setting, the throughput and the CPU per operation of the traced process (medians, each
 * round's), then each traced setting against the same round's baseline: the median of the paired
 * ratios and their spread, for throughput and for CPU per operation; then the other processes' CPU.
 */
function printRatios(what: string, unit: string, cpuUnit: string, figures: Figure[][]): void {
  const base = figures[0]!;
  SETTINGS.forEach((setting, i) => {
    const rates = figures[i]!.map((figure) => figure.rate);
    const cpu = figures[i]!.map((figure) => figure.cpuMs);
    console.log(
      `${setting.name.padEnd(15)} ${median(rates).toFixed(0).padStart(6)} ${unit} (rounds ${rates.map((rate) => rate.toFixed(0)).join(', ')})   CPU ${median(cpu).toFixed(3)} ms ${cpuUnit} (rounds ${cpu.map((ms) => ms.toFixed(3)).join(', ')})`,
    );
  });
  SETTINGS.forEach((setting, i) => {
    if (i === 0) return;
    const rate = figures[i]!.map((figure, round) => figure.rate / base[round]!.rate);
    const cpu = figures[i]!.map((figure, round) => figure.cpuMs / base[round]!.cpuMs);
    const target = TARGETS[setting.name] === undefined ? '' : ` (target >= ${pct(TARGETS[setting.name]!)})`;
    console.log(`${what}: ${setting.name} vs ${SETTINGS[0]!.name}, paired by round: throughput ${spread(rate, pct)}${target}; CPU ${cpuUnit.replace(/ \(.*\)$/, '')} ${spread(cpu, pct)}`);
  });
  for (const other of Object.keys(base[0]?.others ?? {})) {
    const of = (i: number) => median(figures[i]!.map((figure) => figure.others?.[other] ?? 0)).toFixed(3);
    console.log(`${what}: CPU of ${other} ${cpuUnit.replace(/ \(.*\)$/, '')}, ${SETTINGS.map((setting) => setting.name).join(' / ')}: ${SETTINGS.map((_, i) => of(i)).join(' / ')} ms`);
  }
}

/** BENCH_CPU_PROF=<dir>: `NODE_OPTIONS` that make a process write a V8 CPU profile there when it exits (its name starts with `name`). */
const profiling = (name: string): Record<string, string> =>
  process.env.BENCH_CPU_PROF ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)} --cpu-prof-name=${name}-${Date.now()}.cpuprofile` } : {};
const slug = (name: string) => name.replace(/\W+/g, '');

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
    // (The node flags are the harness's for every gateway: BENCH_TRACING_AB=flag varies them in the events part only.)
    const gateways = new Map<Setting, SystemProcess>();
    for (const setting of SETTINGS) {
      const env = { ...limits, ...(setting.ratio === null ? {} : traced(receiver, setting.ratio)), ...setting.env, ...profiling(`gateway-${slug(setting.name)}`) };
      gateways.set(setting, await system.addGateway(0, env));
    }
    const { accessToken } = await login(system.gateway, DEMO.admin);
    const headers = { authorization: `Bearer ${accessToken}` };
    const run = (url: string, duration: number) =>
      autocannon({ url: `${url}/api/v2/auth/me`, headers, connections: CONNECTIONS, duration, workers: 1 }) as unknown as Promise<autocannon.Result>;
    for (const gateway of gateways.values()) await run(gateway.url, 2);

    console.log(`\ngateway: GET /api/v2/auth/me, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION_S} s each (each round every setting, the order rotated), load average ${loadavg()[0].toFixed(1)}`);
    let errors = 0;
    const academic = system.process('academic', 0);
    // Each gateway's CPU over the whole run too, per request it served: what its batch processor
    // exports after its round ends (its 5 s delay outlives a 3 s round) is in it.
    const startCpu = new Map([...gateways].map(([setting, gateway]) => [setting, cpuMs(gateway.pid)]));
    const served = new Map<Setting, number>();
    const figures = await rotate(async (setting) => {
      const gateway = gateways.get(setting)!;
      const before = [cpuMs(gateway.pid), cpuMs(academic.pid), cpuMs(receiver.pid)];
      const result = await run(gateway.url, DURATION_S);
      errors += result.errors + result.non2xx;
      served.set(setting, (served.get(setting) ?? 0) + result.requests.total);
      const per = (now: number, i: number) => (now - before[i]!) / Math.max(1, result.requests.total);
      return {
        rate: result.requests.total / DURATION_S,
        cpuMs: per(cpuMs(gateway.pid), 0),
        others: { academic: per(cpuMs(academic.pid), 1), 'the receiver': per(cpuMs(receiver.pid), 2) },
      };
    });
    printRatios('gateway', 'req/s', 'per request (gateway)', figures);
    await new Promise((resolve) => setTimeout(resolve, 6000));
    const whole = SETTINGS.map((setting) => (cpuMs(gateways.get(setting)!.pid) - startCpu.get(setting)!) / Math.max(1, served.get(setting) ?? 0));
    console.log(`gateway: CPU per request over the whole run (its exports after its rounds and idle work included), ${SETTINGS.map((setting) => setting.name).join(' / ')}: ${whole.map((ms) => ms.toFixed(3)).join(' / ')} ms (${whole.slice(1).map((ms) => pct(ms / whole[0]!)).join(' / ')} of ${SETTINGS[0]!.name})`);
    const spans = await receiver.spans();
    console.log(`gateway: ${errors} errors; ${spans.gateway ?? 0} gateway spans and ${spans.academic ?? 0} academic spans received; by name: ${JSON.stringify(await receiver.names())}`);
  } finally {
    await system.stop();
  }
}

async function eventsPart(receiver: OtlpReceiver): Promise<void> {
  const infra = await ensureInfra('test', (line) => console.log(`[infra] ${line}`), ['postgres', 'rabbitmq']);
  try {
    console.log(`\nevents: ${EVENTS} events (${EVENTS_PER_TRANSACTION} a transaction, each transaction a trace), outbox → relay → broker → consumer (its default: waiting events share a transaction); ${ROUNDS} rounds, a child process each, order rotated; load average ${loadavg()[0].toFixed(1)}`);
    const figures = await rotate(async (setting) => {
      const env = { ...process.env, OTEL_SERVICE_NAME: `bench-events-${slug(setting.name)}`, ...(setting.ratio === null ? { OTEL_EXPORTER_OTLP_ENDPOINT: '' } : traced(receiver, setting.ratio)), ...setting.env };
      const before = cpuMs(receiver.pid);
      const figure = await runEventsChild(env, setting.nodeFlags ?? NODE_FLAGS);
      // The receiver's CPU over the child's whole life (its writes' spans included), per event.
      return { ...figure, others: { 'the receiver': (cpuMs(receiver.pid) - before) / EVENTS } };
    });
    printRatios('events', 'events/s', 'per event (the pipeline process)', figures);
    const spans = await receiver.spans();
    console.log(`events: spans received: ${SETTINGS.map((setting) => `${setting.name} ${spans[`bench-events-${slug(setting.name)}`] ?? 0}`).join(', ')}`);
  } finally {
    if (infra.started.length) await stopInfra('test', infra.started);
  }
}

/** One round of the events part in a child process started with the tracing preload; its events/s and CPU per event. */
function runEventsChild(env: NodeJS.ProcessEnv, nodeFlags: string[]): Promise<Figure> {
  const root = path.resolve(import.meta.dirname, '../..');
  // BENCH_CPU_PROF=<dir>: each child writes a V8 CPU profile there (its file names the setting's service name).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF, '--cpu-prof-name', `${env.OTEL_SERVICE_NAME}-${Date.now()}.cpuprofile`] : [];
  const child = spawn(process.execPath, [...profile, ...nodeFlags, '--import', path.join(root, 'libs/telemetry/src/register.ts'), import.meta.filename, 'events-child'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
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
    // Events acknowledged (after their commit), read from the consumer's own counter: the bench's wait
    // costs the measured process next to nothing. (It counted the inbox rows with a query every 20 ms:
    // a cost per second, not per event, which a slower round divided by fewer events.)
    const acknowledged = async () => (await broker.metrics.consumed.get()).values.reduce((sum, value) => sum + value.value, 0);
    // The writes' spans leave before the clock starts: the measured window is the pipeline's alone.
    await flushTraces();
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const relay = startOutboxRelay({ orm, broker });
    const deadline = Date.now() + 300_000;
    while ((await acknowledged()) < EVENTS) {
      if (Date.now() > deadline) throw new Error(`only ${await acknowledged()} of ${EVENTS} events handled after 300 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const elapsedMs = performance.now() - started;
    // The CPU includes the export of the pipeline's last spans (what the batch processor still held).
    await flushTraces();
    const cpu = process.cpuUsage(cpuBefore);
    await relay.stop();
    await consumer.stop();
    if ((await handled()) !== EVENTS) throw new Error(`${await handled()} inbox rows for ${EVENTS} events`);
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
 * The bench's receiver: takes OTLP exports (protobuf or JSON) and keeps their bodies as they came, no
 * decoding, nothing written; they are decoded only when the bench asks for the counts (`GET /counts`:
 * spans by service; `GET /names`: by service and span name), after the measured rounds. What it costs
 * while they run is an HTTP request per export and a copy of its bytes: as cheap as a receiver in Node
 * gets, since the bench measures the traced process, not the collector (a collector runs in a process,
 * usually a machine, of its own). Its CPU is printed apart all the same. Past 512 MB of bodies it
 * counts what it holds and lets the bodies go.
 */
function countingReceiver(): void {
  const held: { protobuf: boolean; body: Buffer }[] = [];
  let heldBytes = 0;
  const counts: Record<string, number> = {};
  const names: Record<string, number> = {};
  const count = () => {
    for (const { protobuf, body } of held.splice(0)) {
      for (const span of spansOf(protobuf ? decodeProtobufRequest(body) : (JSON.parse(body.toString('utf8')) as OtlpRequest))) {
        counts[span.service] = (counts[span.service] ?? 0) + 1;
        names[`${span.service}: ${span.name}`] = (names[`${span.service}: ${span.name}`] ?? 0) + 1;
      }
    }
    heldBytes = 0;
  };
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && (req.url === '/counts' || req.url === '/names')) {
      count();
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.url === '/counts' ? counts : names));
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const protobuf = String(req.headers['content-type']).startsWith('application/x-protobuf');
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      held.push({ protobuf, body });
      heldBytes += body.length;
      if (heldBytes > 512 * 1024 * 1024) count();
      if (protobuf) res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
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
  const counted = async (what: 'counts' | 'names'): Promise<Record<string, number>> => {
    if (!dev) return (await fetch(`${url}/${what}`)).json() as Promise<Record<string, number>>;
    const counts: Record<string, number> = {};
    for (const span of readSpans(file)) {
      const key = what === 'counts' ? span.service : `${span.service}: ${span.name}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return counts;
  };
  return { url, pid: child.pid!, spans: () => counted('counts'), names: () => counted('names'), close: () => stopChild(child, 5000) };
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
