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
// BENCH_TRACING_AB=batch compares the batch processor's defaults (2048 spans an export, 5 s) with small,
// frequent batches (256, 250 ms: spans die young instead of being promoted while they wait) at 100 %.
// BENCH_TRACING_AB=bind compares, at 100 %, the two ways of binding an event emitter to a context
// (TRACE_BIND_EMIT: each listener wrapped, as the SDK's manager does, or `emit` wrapped once).
// BENCH_TRACING_AB=parts takes a recorded event's cost apart (events part): 100 % as shipped, 100 % with
// its spans recorded but not exported (OTEL_TRACES_EXPORTER=none), 100 % without the pg instrumentation's spans
// (OTEL_NODE_DISABLED_INSTRUMENTATIONS=pg), and the SDK on with every trace sampled out (ratio 0).
// BENCH_TRACING_ONLY=edge runs, instead of both parts, the gateway's tracing without the gateway: a
// minimal proxy per setting in front of an untraced upstream (edgePart). The events child and the
// edge's proxies report their GC pauses (perf_hooks), printed per operation.
// `node tools/bench/tracing.ts profile [--from=<function>] <files>` summarizes the CPU profiles.
// BENCH_TRACING_ONLY=gateway|events runs one part; BENCH_ROUNDS (10 for the gateway and the edge, 6 for
// the events, whose rounds are a child process each), BENCH_DURATION (3 s), BENCH_CONNECTIONS,
// BENCH_TRACING_EVENTS (3000) shorten or lengthen them; BENCH_CPU_PROF=<dir> profiles the three gateways,
// academic and each events child (V8 CPU profiles, written as each exits). Starts the test servers if
// needed (events part).
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { constants as perfConstants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { pipeline } from 'node:stream';
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
/** Rounds of a part: more for the short gateway and edge rounds (seconds each) than for the events' (a child process each). */
const roundsOf = (part: 'gateway' | 'edge' | 'events') => Number(process.env.BENCH_ROUNDS ?? (part === 'events' ? 6 : 10));
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
    : AB === 'bind'
      ? [
          { name: 'tracing off', ratio: null },
          { name: '100% listeners bound', ratio: 1, env: { TRACE_BIND_EMIT: 'false' } },
          { name: '100% emit bound', ratio: 1, env: { TRACE_BIND_EMIT: 'true' } },
        ]
      : AB === 'batch'
      ? [
          { name: 'tracing off', ratio: null },
          { name: '100% 2048/5s', ratio: 1 },
          { name: '100% 256/250ms', ratio: 1, env: { OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '256', OTEL_BSP_SCHEDULE_DELAY: '250' } },
        ]
      : AB === 'parts'
      ? [
          { name: 'tracing off', ratio: null },
          { name: '100%', ratio: 1 },
          { name: '100% unexported', ratio: 1, env: { OTEL_TRACES_EXPORTER: 'none' } },
          { name: '100% no pg spans', ratio: 1, env: { OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'pg' } },
          { name: 'SDK on, 0%', ratio: 0 },
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
 * throughput on a shared machine), what else was spent per operation meanwhile (ms: the receiver's
 * and academic's CPU, the traced process's GC pauses where it reports them), and the machine's load
 * average when the measurement started.
 */
type Figure = { rate: number; cpuMs: number; others?: Record<string, number>; load?: number };

/**
 * The process's garbage collections as `perf_hooks` reports them: pauses (ms, on the main thread)
 * and counts, minor (scavenges of the young generation) and major (mark-compact of the old one).
 */
export function gcCounters(): { read(): { minorMs: number; majorMs: number; otherMs: number; minor: number; major: number }; stop(): void } {
  const totals = { minorMs: 0, majorMs: 0, otherMs: 0, minor: 0, major: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = ((entry as PerformanceEntry & { detail?: { kind?: number } }).detail)?.kind;
      if (kind === perfConstants.NODE_PERFORMANCE_GC_MINOR) {
        totals.minorMs += entry.duration;
        totals.minor++;
      } else if (kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) {
        totals.majorMs += entry.duration;
        totals.major++;
      } else totals.otherMs += entry.duration;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return { read: () => ({ ...totals }), stop: () => observer.disconnect() };
}

/**
 * Runs `measure` for every setting in short rounds, each round all settings back to back (the order
 * rotated per round: ABC, BCA, CAB…), so that each traced setting is paired with the baseline of the
 * same round, a few seconds apart; the figures by setting, one per round.
 */
async function rotate(rounds: number, measure: (setting: Setting) => Promise<Figure>): Promise<Figure[][]> {
  const figures = SETTINGS.map(() => [] as Figure[]);
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < SETTINGS.length; i++) {
      const at = (i + round) % SETTINGS.length;
      const load = loadavg()[0];
      figures[at]!.push({ ...(await measure(SETTINGS[at]!)), load });
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
    console.log(`${what}: ${other} ${cpuUnit.replace(/ \(.*\)$/, '')}, ${SETTINGS.map((setting) => setting.name).join(' / ')}: ${SETTINGS.map((_, i) => of(i)).join(' / ')} ms`);
  }
  const loads = figures.flat().map((figure) => figure.load ?? 0);
  console.log(`${what}: load average (1 min) at the start of each measurement: median ${median(loads).toFixed(1)}, ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`);
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

    console.log(`\ngateway: GET /api/v2/auth/me, ${CONNECTIONS} connections, ${roundsOf('gateway')} rounds of ${DURATION_S} s each (each round every setting, the order rotated), load average ${loadavg()[0].toFixed(1)}`);
    let errors = 0;
    const academic = system.process('academic', 0);
    // Each gateway's CPU over the whole run too, per request it served: what its batch processor
    // exports after its round ends (its 5 s delay outlives a 3 s round) is in it.
    const startCpu = new Map([...gateways].map(([setting, gateway]) => [setting, cpuMs(gateway.pid)]));
    const served = new Map<Setting, number>();
    const figures = await rotate(roundsOf('gateway'), async (setting) => {
      const gateway = gateways.get(setting)!;
      const before = [cpuMs(gateway.pid), cpuMs(academic.pid), cpuMs(receiver.pid)];
      const result = await run(gateway.url, DURATION_S);
      errors += result.errors + result.non2xx;
      served.set(setting, (served.get(setting) ?? 0) + result.requests.total);
      const per = (now: number, i: number) => (now - before[i]!) / Math.max(1, result.requests.total);
      return {
        rate: result.requests.total / DURATION_S,
        cpuMs: per(cpuMs(gateway.pid), 0),
        others: { 'CPU of academic': per(cpuMs(academic.pid), 1), 'CPU of the receiver': per(cpuMs(receiver.pid), 2) },
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

/** A child process of this bench that prints `… on http://host:port,` once it listens: its URL, pid and stop. */
async function listeningChild(args: string[], env: NodeJS.ProcessEnv): Promise<{ url: string; pid: number; child: ChildProcess }> {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${out}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = / on (http:\/\/\S+),/.exec(out);
      if (found) resolve(found[1]!);
    });
  });
  child.removeAllListeners('exit');
  return { url, pid: child.pid!, child };
}

/**
 * The edge alone (`BENCH_TRACING_ONLY=edge`): what the gateway's tracing costs a request without the
 * gateway's own work. A minimal proxy per setting, started as a service is (the apps' node flags, the
 * tracing preload, `TRACE_EDGE=true` as the gateway has it), forwards each request through a
 * keep-alive agent to an untraced upstream that answers a fixed JSON body. Its CPU per request is
 * tracing's cost on top of next to nothing: what a recorded request costs the gateway at least (its
 * server span, the context injected into the proxied request, the batch and its export). Each proxy
 * reports its GC pauses at `/metrics` (a probe path: never traced).
 */
async function edgePart(receiver: OtlpReceiver): Promise<void> {
  const register = path.resolve(import.meta.dirname, '../../libs/telemetry/src/register.ts');
  const upstream = await listeningChild([import.meta.filename, 'upstream'], { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '' });
  const proxies = new Map<Setting, { url: string; pid: number; child: ChildProcess }>();
  try {
    for (const setting of SETTINGS) {
      const env = {
        ...process.env,
        OTEL_SERVICE_NAME: `edge-${slug(setting.name)}`,
        TRACE_EDGE: 'true',
        ...(setting.ratio === null ? { OTEL_EXPORTER_OTLP_ENDPOINT: '' } : traced(receiver, setting.ratio)),
        ...setting.env,
        ...profiling(`edge-${slug(setting.name)}`),
      };
      proxies.set(setting, await listeningChild([...(setting.nodeFlags ?? NODE_FLAGS), '--import', register, import.meta.filename, 'edge-child', upstream.url], env));
    }
    const headers = { authorization: `Bearer ${randomBytes(300).toString('base64url')}`, 'user-agent': 'bench-tracing' };
    const run = (url: string, duration: number) =>
      autocannon({ url: `${url}/api/v2/auth/me`, headers, connections: CONNECTIONS, duration, workers: 1 }) as unknown as Promise<autocannon.Result>;
    for (const proxy of proxies.values()) await run(proxy.url, 2);
    const gcOf = async (url: string) => {
      const gc = (await (await fetch(`${url}/metrics`)).json()) as { minorMs: number; majorMs: number; otherMs: number };
      return gc.minorMs + gc.majorMs + gc.otherMs;
    };
    console.log(`\nedge: a minimal proxy (gateway's tracing, no gateway) → an untraced upstream, GET /api/v2/auth/me, ${CONNECTIONS} connections, ${roundsOf('edge')} rounds of ${DURATION_S} s each (each round every setting, the order rotated), load average ${loadavg()[0].toFixed(1)}`);
    const startCpu = new Map([...proxies].map(([setting, proxy]) => [setting, cpuMs(proxy.pid)]));
    const served = new Map<Setting, number>();
    let errors = 0;
    const figures = await rotate(roundsOf('edge'), async (setting) => {
      const proxy = proxies.get(setting)!;
      const gcBefore = await gcOf(proxy.url);
      const before = [cpuMs(proxy.pid), cpuMs(upstream.pid), cpuMs(receiver.pid)];
      const result = await run(proxy.url, DURATION_S);
      errors += result.errors + result.non2xx;
      served.set(setting, (served.get(setting) ?? 0) + result.requests.total);
      const n = Math.max(1, result.requests.total);
      const per = (now: number, i: number) => (now - before[i]!) / n;
      const cpu = [cpuMs(proxy.pid), cpuMs(upstream.pid), cpuMs(receiver.pid)];
      return {
        rate: result.requests.total / DURATION_S,
        cpuMs: per(cpu[0]!, 0),
        others: { 'CPU of the upstream': per(cpu[1]!, 1), 'CPU of the receiver': per(cpu[2]!, 2), 'GC pauses of the proxy': ((await gcOf(proxy.url)) - gcBefore) / n },
      };
    });
    printRatios('edge', 'req/s', 'per request (the proxy)', figures);
    await new Promise((resolve) => setTimeout(resolve, 6000));
    const whole = SETTINGS.map((setting) => (cpuMs(proxies.get(setting)!.pid) - startCpu.get(setting)!) / Math.max(1, served.get(setting) ?? 0));
    console.log(`edge: CPU per request over the whole run (exports after its rounds included), ${SETTINGS.map((setting) => setting.name).join(' / ')}: ${whole.map((ms) => ms.toFixed(3)).join(' / ')} ms (${whole.slice(1).map((ms) => pct(ms / whole[0]!)).join(' / ')} of ${SETTINGS[0]!.name})`);
    console.log(`edge: ${errors} errors; spans by name: ${JSON.stringify(await receiver.names())}`);
  } finally {
    for (const proxy of proxies.values()) await stopChild(proxy.child, 5000);
    await stopChild(upstream.child, 5000);
  }
}

/** The edge part's upstream: a fixed JSON answer (the shape of /auth/me's), keep-alive, untraced. */
function upstreamChild(): void {
  const body = JSON.stringify({ id: 1, email: 'admin@academy.local', name: 'Academy Admin', roles: ['admin'], schoolIds: [1, 2, 3], locale: 'en' });
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body));
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => console.log(`upstream on http://127.0.0.1:${(server.address() as AddressInfo).port},`));
}

/**
 * The edge part's proxy: each request forwarded as it came (its headers, the traced edge's
 * `traceparent` among them) through a keep-alive agent, the answer piped back. `/metrics` answers
 * the process's GC pauses so far (ms, `gcCounters`).
 */
function edgeChild(upstreamUrl: string): void {
  const target = new URL(upstreamUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const gc = gcCounters();
  const server = http.createServer((req, res) => {
    if (req.url === '/metrics') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(gc.read()));
    const proxied = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host }, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      pipeline(answer, res, () => undefined);
    });
    proxied.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    pipeline(req, proxied, () => undefined);
  });
  server.keepAliveTimeout = 65_000;
  // A normal exit on SIGTERM: `--cpu-prof` (BENCH_CPU_PROF) writes its profile only then.
  process.once('SIGTERM', () => process.exit(0));
  server.listen(0, '127.0.0.1', () => console.log(`edge on http://127.0.0.1:${(server.address() as AddressInfo).port},`));
}

async function eventsPart(receiver: OtlpReceiver): Promise<void> {
  const infra = await ensureInfra('test', (line) => console.log(`[infra] ${line}`), ['postgres', 'rabbitmq']);
  try {
    console.log(`\nevents: ${EVENTS} events (${EVENTS_PER_TRANSACTION} a transaction, each transaction a trace), outbox → relay → broker → consumer (its default: waiting events share a transaction); ${roundsOf('events')} rounds, a child process each, order rotated; load average ${loadavg()[0].toFixed(1)}`);
    const figures = await rotate(roundsOf('events'), async (setting) => {
      const env = { ...process.env, OTEL_SERVICE_NAME: `bench-events-${slug(setting.name)}`, ...(setting.ratio === null ? { OTEL_EXPORTER_OTLP_ENDPOINT: '' } : traced(receiver, setting.ratio)), ...setting.env };
      const before = cpuMs(receiver.pid);
      const figure = await runEventsChild(env, setting.nodeFlags ?? NODE_FLAGS);
      // The receiver's CPU over the child's whole life (its writes' spans included), per event.
      return { ...figure, others: { ...figure.others, 'CPU of the receiver': (cpuMs(receiver.pid) - before) / EVENTS } };
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
      const result = /^events-per-second (\d+(?:\.\d+)?) cpu-ms-per-event (\d+(?:\.\d+)?) gc-ms-per-event (\d+(?:\.\d+)?) major-gc-ms-per-event (\d+(?:\.\d+)?)$/m.exec(out);
      const others: Record<string, number> = result ? { 'GC pauses of the pipeline process': Number(result[3]), 'of them major (mark-compact)': Number(result[4]) } : {};
      if (code === 0 && result) resolve({ rate: Number(result[1]), cpuMs: Number(result[2]), others });
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
    const gc = gcCounters();
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
    // The observer's last entries are delivered on a later turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    const collected = gc.read();
    gc.stop();
    await relay.stop();
    await consumer.stop();
    if ((await handled()) !== EVENTS) throw new Error(`${await handled()} inbox rows for ${EVENTS} events`);
    const gcMs = collected.minorMs + collected.majorMs + collected.otherMs;
    console.log(
      `events-per-second ${((EVENTS / elapsedMs) * 1000).toFixed(1)} cpu-ms-per-event ${((cpu.user + cpu.system) / 1000 / EVENTS).toFixed(4)} gc-ms-per-event ${(gcMs / EVENTS).toFixed(4)} major-gc-ms-per-event ${(collected.majorMs / EVENTS).toFixed(4)}`,
    );
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
else if (process.argv[2] === 'upstream') upstreamChild();
else if (process.argv[2] === 'edge-child') edgeChild(process.argv[3]!);
else if (process.argv[2] === 'profile') summarizeProfiles(process.argv.slice(3));
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
 * `node tools/bench/tracing.ts profile [--from=<name>] <file.cpuprofile>…` (the profiles BENCH_CPU_PROF
 * writes): where each process's busy time went, as shares of it (idle excluded). Self time is
 * charged to a category by the frame's script: tracing (`@opentelemetry/*`, libs/telemetry, kit's
 * telemetry.ts, the module hooks), the garbage collector, Node's own internals, each other package,
 * the repository's code; a native or Node-internal frame called from tracing code counts as tracing
 * (the protobuf writer's buffer writes, the context manager's AsyncLocalStorage). `--from=<name>`
 * skips the samples before the first one whose stack has a frame named so (e.g. `parserOnIncoming`,
 * the first request; `startOutboxRelay`): start-up out. Then tracing's own functions, heaviest first.
 */
function summarizeProfiles(args: string[]): void {
  const from = args.find((arg) => arg.startsWith('--from='))?.slice('--from='.length);
  type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
  const tracing = /@opentelemetry|libs\/telemetry|libs\/kit\/src\/telemetry|in-the-middle|protobufjs/;
  for (const file of args.filter((arg) => !arg.startsWith('--'))) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const parent = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
    const category = new Map<number, string>();
    const categoryOf = (id: number): string => {
      const known = category.get(id);
      if (known) return known;
      const { functionName, url } = byId.get(id)!.callFrame;
      const up = parent.get(id);
      let found: string;
      if (functionName === '(garbage collector)') found = 'GC';
      else if (functionName === '(idle)') found = 'idle';
      else if (functionName === '(program)') found = 'program';
      else if (tracing.test(url)) found = 'tracing';
      else if (url.startsWith('node:')) found = 'node internals';
      else if (url === '') {
        const above = up === undefined ? '(root)' : categoryOf(up);
        found = above === '(root)' ? 'natives' : above;
      } else if (url.includes('node_modules/')) found = url.split('node_modules/').at(-1)!.split('/').slice(0, url.split('node_modules/').at(-1)!.startsWith('@') ? 2 : 1).join('/');
      else found = functionName === '(root)' ? '(root)' : 'the repository';
      category.set(id, found);
      return found;
    };
    const stackHas = (id: number, name: string): boolean => {
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) if (byId.get(at)!.callFrame.functionName === name) return true;
      return false;
    };
    let started = !from;
    const selfMs = new Map<string, number>();
    const tracingFunctions = new Map<string, number>();
    profile.samples.forEach((id, i) => {
      if (!started && stackHas(id, from!)) started = true;
      if (!started) return;
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      const what = categoryOf(id);
      selfMs.set(what, (selfMs.get(what) ?? 0) + ms);
      if (what === 'tracing') {
        const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
        const key = `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(libs|apps|tools)\//, '$1/')}:${lineNumber + 1}`;
        tracingFunctions.set(key, (tracingFunctions.get(key) ?? 0) + ms);
      }
    });
    const busy = [...selfMs].filter(([what]) => what !== 'idle').reduce((sum, [, ms]) => sum + ms, 0);
    const share = (ms: number) => `${((ms / busy) * 100).toFixed(1)}%`;
    console.log(`\n${path.basename(file)}: busy ${(busy / 1000).toFixed(2)} s${from ? ` from the first ${from}` : ''}`);
    console.log(`  ${[...selfMs].filter(([what]) => what !== 'idle').sort((a, b) => b[1] - a[1]).slice(0, 14).map(([what, ms]) => `${what} ${share(ms)}`).join(', ')}`);
    for (const [key, ms] of [...tracingFunctions].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`    ${share(ms).padStart(6)}  ${key}`);
  }
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
    if (ONLY === 'edge') await edgePart(receiver);
    else {
      if (ONLY !== 'events') await gatewayPart(receiver);
      if (ONLY !== 'gateway') await eventsPart(receiver);
    }
  } finally {
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(0);
}
