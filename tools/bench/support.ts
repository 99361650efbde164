// The plumbing the benchmarks (tools/bench/*.ts) share: a service started as its own process with its
// environment, and its readiness; CPU time of processes and of PostgreSQL backends from /proc (per
// request, a figure the machine's other load barely moves); an autocannon run turned into
// p50/p99/req/s/errors; percentiles and medians of latencies; the gateway's rate limits out of the way.
// Stopping a process and probing a URL come from tools/dev/processes.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import amqp from 'amqplib';
import autocannon from 'autocannon';
import type pg from 'pg';
import { freePort, waitFor } from '@academy/infra';
import { TEST_KEYS_DIR, TEST_KID, testUrls, uniqueName } from '@academy/testing';
import { answersOk, NODE_FLAGS, stopChild } from '../dev/processes.ts';

/** Whether CPU times can be read from /proc (Linux). */
export const procAvailable = existsSync('/proc/self/stat');

/** CPU time (user + system, ms) a process has used so far; 0 once it is gone (or without /proc). */
export function cpuMs(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in clock ticks of 10 ms
  } catch {
    return 0;
  }
}

/**
 * CPU time of each PostgreSQL backend on the pool's database, by pid. `excludeSelf`: without the
 * backend that answers this query (the caller's own connection).
 */
export async function postgresCpu(db: pg.Pool, excludeSelf = false): Promise<Map<number, number>> {
  const { rows } = await db.query<{ pid: number }>(`select pid from pg_stat_activity where datname = current_database()${excludeSelf ? ' and pid <> pg_backend_pid()' : ''}`);
  return new Map(rows.map((row) => [row.pid, cpuMs(row.pid)]));
}

/** CPU used between two snapshots by the backends alive at the second (one started meanwhile counts whole; one that exited is missed). */
export function postgresCpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let used = 0;
  for (const [pid, ms] of after) used += ms - (before.get(pid) ?? 0);
  return used;
}

/**
 * Measures the CPU the named processes (and, with `db`, that database's PostgreSQL backends as
 * `postgres`) spend while `work` runs, per request: divided by `count(result)` (at least 1).
 */
export function cpuMeter<K extends string>(processes: Record<K, ChildProcess | { pid?: number }>, db?: pg.Pool) {
  const names = Object.keys(processes) as K[];
  return async <T>(count: (result: T) => number, work: () => Promise<T>): Promise<{ result: T; cpu: Record<K | 'postgres', number> }> => {
    const before = names.map((name) => cpuMs(processes[name].pid));
    const postgresBefore = db ? await postgresCpu(db) : null;
    const result = await work();
    const postgresAfter = db ? await postgresCpu(db) : null;
    const n = Math.max(1, count(result));
    const cpu = { postgres: postgresBefore && postgresAfter ? postgresCpuDelta(postgresBefore, postgresAfter) / n : 0 } as Record<K | 'postgres', number>;
    names.forEach((name, i) => (cpu[name] = (cpuMs(processes[name].pid) - before[i]!) / n));
    return { result, cpu };
  };
}

/** Resident memory of a process, in MB. */
export const rssMb = (pid: number | undefined) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** The 1, 5 and 15 minute load averages, as /proc/loadavg gives them. */
export const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** The JWT settings of a test config as a service's environment. */
export const jwtEnv = (config: { JWT_KEYS_DIR: string; JWT_KEY_IDS: string[]; JWT_ISSUER: string; JWT_AUDIENCE: string }) => ({
  JWT_KEYS_DIR: config.JWT_KEYS_DIR,
  JWT_KEY_IDS: config.JWT_KEY_IDS.join(','),
  JWT_ISSUER: config.JWT_ISSUER,
  JWT_AUDIENCE: config.JWT_AUDIENCE,
});

/** The gateway's rate limits out of the way, but still counted in Redis on every request. */
export const gatewayLimitsOff = () => ({
  REDIS_URL: testUrls.redis,
  RATE_LIMIT_KEY_PREFIX: uniqueName('bench_rl'),
  RATE_LIMIT_IP_PER_MINUTE: '100000000',
  RATE_LIMIT_USER_PER_MINUTE: '100000000',
});

/**
 * The gateway in this process on port 0, silent, with the test keys and its limits out of the way, in
 * front of `upstreams` (`{ ACADEMIC_URL }`); `upstreams` may set other settings too.
 */
export async function startInProcessGateway(upstreams: Record<string, string>) {
  const [{ ConfigSchema }, { startGateway }] = await Promise.all([import('../../apps/gateway/src/config.ts'), import('../../apps/gateway/src/gateway.ts')]);
  return startGateway(ConfigSchema.parse({ PORT: '0', LOG_LEVEL: 'silent', JWT_KEYS_DIR: TEST_KEYS_DIR, JWT_KEY_IDS: TEST_KID, ...gatewayLimitsOff(), ...upstreams }));
}

export interface ServiceProcess {
  child: ChildProcess;
  port: number;
  url: string;
}

/**
 * `node apps/<service>/src/main.ts` on a free port, its output on this terminal, with
 * `LOG_LEVEL=error` unless `env` says otherwise (an `undefined` in `env` removes a variable).
 * `cpuProfile`: with BENCH_CPU_PROF=<dir>, a V8 CPU profile of the process is written there.
 */
export async function startServiceProcess(service: string, env: Record<string, string | undefined>, options: { cpuProfile?: boolean } = {}): Promise<ServiceProcess> {
  const port = await freePort();
  const flags = options.cpuProfile && process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
  const child = spawn(process.execPath, [...flags, ...NODE_FLAGS, `apps/${service}/src/main.ts`], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, LOG_LEVEL: 'error', ...env, PORT: String(port) },
  });
  return { child, port, url: `http://127.0.0.1:${port}` };
}

/** Waits until `url` answers 2xx (a service's `/readyz`). */
export const waitReady = (name: string, url: string, timeoutMs = 60_000) => waitFor(name, () => answersOk(url), timeoutMs);

/** startServiceProcess, the process added to `children` (to stop at the end), then waitReady on `readyPath`; `cpuProfile` as startServiceProcess's. */
export async function startReady(service: string, env: Record<string, string | undefined>, options: { children: ChildProcess[]; readyPath?: string; cpuProfile?: boolean }): Promise<ServiceProcess> {
  const started = await startServiceProcess(service, env, { cpuProfile: options.cpuProfile });
  options.children.push(started.child);
  await waitReady(service, `${started.url}${options.readyPath ?? '/readyz'}`);
  return started;
}

/** Stops the processes still running, one by one (SIGTERM, then SIGKILL after 15 s). */
export async function stopAll(children: ChildProcess[]): Promise<void> {
  for (const child of children) await stopChild(child);
}

/**
 * Stands for the consumer of a service's events, so the outbox relay's publishes are routable
 * (otherwise it keeps retrying them); it keeps only the newest message. Close the connection at the end.
 */
export async function eventSink(exchange: string, pattern: string, url = testUrls.rabbitmq) {
  const connection = await amqp.connect(url);
  const channel = await connection.createChannel();
  const sink = await channel.assertQueue('', { exclusive: true, autoDelete: true, arguments: { 'x-max-length': 1 } });
  await channel.bindQueue(sink.queue, exchange, pattern);
  return connection;
}

export interface Figures {
  p50: number;
  p99: number;
  rps: number;
  errors: number;
}

/** An autocannon run's figures; answers of `expectStatus` (a floor answering 400 on purpose) do not count as errors. */
export function figuresOf(result: autocannon.Result, expectStatus = 200): Figures {
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    errors: result.errors + result.timeouts + result.non2xx - (expectStatus === 200 ? 0 : (result.statusCodeStats?.[String(expectStatus) as '400']?.count ?? 0)),
  };
}

/** The columns of a table row: p50, p99, req/s and errors. */
export const figureColumns = (figures: Figures) => ({ 'p50 ms': figures.p50, 'p99 ms': figures.p99, 'req/s': Math.round(figures.rps), errors: figures.errors });

/** The table row of the floor of most gateway benches: a request proxied and refused before any query. */
export const FLOOR_SCENARIO = 'baseline: proxied, refused before any query (400)';

/** `p99` as a multiple of the floor's p99. */
export const vsFloor = (p99: number, floorP99: number) => p99 / Math.max(1, floorP99);

/** `MET` when `value` is under `target`, `INVALID` when any request failed. */
export const verdict = (value: number, target: number, errors: number) => (errors > 0 ? `INVALID (${errors} errors)` : value < target ? 'MET' : 'NOT MET');

/** The value at quantile `q` (0–1) of ascending `sorted`; 0 when empty. */
export const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;

/** Nearest-rank percentile `p` (0–100) of ascending `sorted`. */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A latency in ms to a tenth. */
export const tenths = (ms: number) => Math.round(ms * 10) / 10;

/** GETs of `pathOf(i)` for the i-th request, `connections` clients for `duration` seconds. */
export function getPaths(url: string, pathOf: (i: number) => string, options: { connections: number; duration: number; headers?: Record<string, string> }): Promise<autocannon.Result> {
  let n = 0;
  return autocannon({ url, ...options, requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: pathOf(n++) }) }] });
}

/** A run of the benches that interleave rounds (hours-bank, replicas): throughput, p99 and failed requests. */
export interface OpsFigures {
  opsPerSec: number;
  p99Ms: number;
  errors: number;
}

/** The rounds of one run together: medians of ops/s and p99, errors summed. */
export const medianOps = (figures: OpsFigures[]): OpsFigures => ({
  opsPerSec: median(figures.map((f) => f.opsPerSec)),
  p99Ms: median(figures.map((f) => f.p99Ms)),
  errors: figures.reduce((sum, f) => sum + f.errors, 0),
});

/**
 * hours-bank's POSTs, alternating completed (1h 10m) and pending (1h) hours on the bank of
 * `employeeOf(i)` for the i-th request; `keyOf(i)`: an Idempotency-Key on each.
 */
export function hoursBankPosts(authorization: string, employeeOf: (i: number) => number, keyOf?: (i: number) => string): autocannon.Request[] {
  let n = 0;
  return [
    {
      method: 'POST',
      setupRequest: (request) => {
        const i = n++;
        return {
          ...request,
          path: `/api/v2/hours-bank/${employeeOf(i)}/${i % 2 === 0 ? 'completed' : 'pending'}`,
          headers: { 'content-type': 'application/json', authorization, ...(keyOf ? { 'idempotency-key': keyOf(i) } : {}) },
          body: JSON.stringify({ time: i % 2 === 0 ? '1h 10m' : '1h' }),
        };
      },
    },
  ];
}
