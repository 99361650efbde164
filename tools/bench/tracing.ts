// `npm run bench:tracing`: what tracing costs, same run, against a local OTLP receiver
// (tools/dev/otlp-receiver.ts, in this process) as `npm start` has it. Two parts, each printing the
// throughput with tracing at 100% and at 10% as a ratio of tracing off (targets: ≥ 90% and ≥ 97%):
//
// - gateway: academic and three gateways in front of it, as processes started like `npm start`
//   starts them (tools/system/harness.ts): a gateway with tracing off (no endpoint: the preload does
//   nothing), one tracing 100% of requests and one 10%. Academic exports too, following the gateway's
//   decision (parent-based; what comes untraced from the off gateway stays untraced). Rounds of
//   GET /api/v2/auth/me (gateway → academic: JWT check, a PostgreSQL read) alternate the three.
// - events: the event pipeline of bench:events (outbox committed → relay → RabbitMQ → consumer at
//   its default, waiting events sharing a transaction; handler + inbox), in a child process per
//   round and setting (started with the tracing preload, as an app is): BENCH_TRACING_EVENTS events
//   written by `recordEvent`, ten per transaction, each transaction the root span of a trace (a
//   request's, sampled by the ratio);
//   then the clock runs from the relay's start to the last inbox row. A traced event costs a stored
//   trace context, a publish span, a process span and the handler's query spans, all exported.
//
// BENCH_TRACING_ONLY=gateway|events runs one part; BENCH_ROUNDS, BENCH_DURATION, BENCH_CONNECTIONS,
// BENCH_TRACING_EVENTS shorten or lengthen them; BENCH_CPU_PROF=<dir> profiles each events child. Starts the test servers if needed (events part).
import { spawn } from 'node:child_process';
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
import { readSpans, startOtlpReceiver, type OtlpReceiver } from '../dev/otlp-receiver.ts';
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

const traced = (receiver: OtlpReceiver, ratio: number) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: String(ratio) });
const pct = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;

/** One measurement: throughput, and the CPU the traced process spent per operation (ms; steadier than throughput on a shared machine). */
type Figure = { rate: number; cpuMs: number };

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
}

async function gatewayPart(receiver: OtlpReceiver): Promise<void> {
  const limits = { RATE_LIMIT_USER_PER_MINUTE: '100000000', RATE_LIMIT_IP_PER_MINUTE: '100000000' };
  const system = await startTestSystem({
    name: 'benchtracing',
    redisDb: 11,
    // hours-bank and incidents only because the harness's seed waits for their replicas.
    backends: ['academic', 'hours-bank', 'incidents'],
    // Academic's own roots (requests with no parent) are not sampled: it records only what a tracing gateway decided to.
    env: { academic: { ...traced(receiver, 1), OTEL_TRACES_SAMPLER: 'parentbased_always_off' }, gateway: limits },
    log: (line) => console.log(`[system] ${line}`),
  });
  try {
    // Three gateways started alike (the harness's own one served the seed): only their tracing differs.
    const gateways: Record<Setting, SystemProcess> = {
      'tracing off': await system.addGateway(0, limits),
      'tracing 100%': await system.addGateway(0, { ...limits, ...traced(receiver, 1) }),
      'tracing 10%': await system.addGateway(0, { ...limits, ...traced(receiver, 0.1) }),
    };
    const { accessToken } = await login(system.gateway, DEMO.admin);
    const headers = { authorization: `Bearer ${accessToken}` };
    const run = (url: string, duration: number) =>
      autocannon({ url: `${url}/api/v2/auth/me`, headers, connections: CONNECTIONS, duration, workers: 1 }) as unknown as Promise<autocannon.Result>;
    for (const gateway of Object.values(gateways)) await run(gateway.url, 2);

    console.log(`\ngateway: GET /api/v2/auth/me, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION_S} s each (order rotated per round), load average ${loadavg()[0].toFixed(1)}`);
    let errors = 0;
    const figures = await rotate(async (name) => {
      const cpuBefore = cpuMs(gateways[name].pid);
      const result = await run(gateways[name].url, DURATION_S);
      errors += result.errors + result.non2xx;
      return { rate: result.requests.total / DURATION_S, cpuMs: (cpuMs(gateways[name].pid) - cpuBefore) / Math.max(1, result.requests.total) };
    });
    printRatios('gateway', 'req/s', 'per request (gateway)', figures);
    await new Promise((resolve) => setTimeout(resolve, 6000));
    const spans = readSpans(receiver.file);
    console.log(`gateway: ${errors} errors; ${spans.filter((s) => s.service === 'gateway').length} gateway spans and ${spans.filter((s) => s.service === 'academic').length} academic spans received`);
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
      return runEventsChild(env);
    });
    printRatios('events', 'events/s', 'per event (the pipeline process)', figures);
    const spans = readSpans(receiver.file).filter((span) => span.service.startsWith('bench-events'));
    const count = (service: string) => spans.filter((span) => span.service === service).length;
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
  const child = spawn(process.execPath, [...profile, '--import', path.join(root, 'libs/telemetry/src/register.ts'), import.meta.filename, 'events-child'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
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

const dir = mkdtempSync(path.join(tmpdir(), 'academy-bench-tracing-'));
const receiver = await startOtlpReceiver({ file: path.join(dir, 'spans.jsonl'), port: 0 });
try {
  if (ONLY !== 'events') await gatewayPart(receiver);
  if (ONLY !== 'gateway') await eventsPart(receiver);
} finally {
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
