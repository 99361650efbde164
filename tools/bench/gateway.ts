// `npm run bench:gateway`: an authenticated GET /api/v2/auth/me through the gateway vs straight to
// academic, same run, same concurrency. Starts the test servers (or reuses them), academic and the
// gateway in-process on port 0; autocannon runs in a worker thread so it does not share their loop.
import autocannon from 'autocannon';
import { hashPassword } from '@academy/auth';
import { ensureInfra, stopInfra } from '@academy/infra';
import { startService } from '@academy/service';
import { dropTestDatabase, testConfig } from '@academy/testing';
import { academicService } from '../../apps/academic/src/service.ts';
import { SettingsSchema } from '../../apps/academic/src/config.ts';
import { User } from '../../apps/academic/src/shared/entities/user.entity.ts';
import { median, quantile, startInProcessGateway } from './support.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const WARMUP_S = 3;
const SEQUENTIAL_REQUESTS = Number(process.env.BENCH_SEQUENTIAL ?? 2000);

/**
 * Latency without queueing: one request at a time, alternating direct and gateway so both see the
 * same load on the shared machine, timed to the microsecond (autocannon rounds to 1 ms).
 */
async function sequentialLatency(urls: string[], headers: Record<string, string>, count: number) {
  const samples = urls.map(() => [] as number[]);
  for (let i = 0; i < count; i++) {
    for (const [index, url] of urls.entries()) {
      const started = performance.now();
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      samples[index].push(performance.now() - started);
    }
  }
  return samples.map((list) => {
    list.sort((x, y) => x - y);
    return { p50: quantile(list, 0.5), p99: quantile(list, 0.99) };
  });
}

const infra = await ensureInfra('test', (line) => console.log(`[infra] ${line}`));
const academic = await startService(academicService, { ...(await testConfig('bench_gateway', SettingsSchema)), LOG_LEVEL: 'silent' });
const gatewayWith = (extra: Record<string, string> = {}) => startInProcessGateway({ ACADEMIC_URL: academic.url, ...extra });
// The gateway as configured (a token's session checked in Redis at most every 2 s), and one that
// checks the session on every request: the difference is what the check itself costs.
const gateway = await gatewayWith();
const gatewayCheckingEveryRequest = await gatewayWith({ TOKEN_REVOCATION_CHECK_MS: '0' });

try {
  const em = academic.ctx.orm.em.fork();
  em.create(User, { email: 'bench@academy.test', passwordHash: await hashPassword('bench-pass'), role: 'user', employeeId: 1 });
  await em.flush();
  const login = await fetch(`${academic.url}/api/v2/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@academy.test', password: 'bench-pass' }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const headers = { authorization: `Bearer ${accessToken}` };

  const run = (url: string, duration: number) =>
    autocannon({ url: `${url}/api/v2/auth/me`, headers, connections: CONNECTIONS, duration, workers: 1 }) as unknown as Promise<autocannon.Result>;

  for (const url of [academic.url, gateway.url]) {
    const check = await fetch(`${url}/api/v2/auth/me`, { headers });
    if (check.status !== 200) throw new Error(`${url}/api/v2/auth/me answered ${check.status}`);
    await run(url, WARMUP_S);
  }
  // Rounds alternate direct and gateway runs so a change of load on the shared machine hits both alike.
  console.log(`\nGET /api/v2/auth/me, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION_S} s each way (warm-up ${WARMUP_S} s each)`);
  const results: Record<'direct' | 'gateway', autocannon.Result[]> = { direct: [], gateway: [] };
  for (let round = 0; round < ROUNDS; round++) {
    results.direct.push(await run(academic.url, DURATION_S));
    results.gateway.push(await run(gateway.url, DURATION_S));
  }
  const summary = (list: autocannon.Result[]) => ({
    rps: list.reduce((sum, r) => sum + r.requests.total, 0) / (list.length * DURATION_S),
    p50: median(list.map((r) => r.latency.p50)),
    p99: median(list.map((r) => r.latency.p99)),
    errors: list.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
    statuses: list.map((r) => JSON.stringify({ ...r.statusCodeStats, errors: r.errors, timeouts: r.timeouts })).join(' '),
  });
  const direct = summary(results.direct);
  const viaGateway = summary(results.gateway);
  const row = (name: string, r: ReturnType<typeof summary>) =>
    `${name.padEnd(18)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms   errors ${r.errors}${r.errors ? ` ${r.statuses}` : ''}`;
  console.log(row('direct (academic)', direct));
  console.log(row('through gateway', viaGateway));
  console.log(`per round, gateway/direct: ${results.gateway.map((r, i) => `${((r.requests.total / results.direct[i].requests.total) * 100).toFixed(0)}%`).join(' ')}`);
  const ratio = viaGateway.rps / direct.rps;
  console.log(`\nthroughput through the gateway: ${(ratio * 100).toFixed(1)}% of direct (target >= 65%)`);
  console.log('(under saturation latency is mostly queueing: connections / throughput)');

  console.log(`\nOne request at a time, alternating, ${SEQUENTIAL_REQUESTS} requests each way (after ${SEQUENTIAL_REQUESTS / 4} warm-up):`);
  const urls = [`${academic.url}/api/v2/auth/me`, `${gateway.url}/api/v2/auth/me`, `${gatewayCheckingEveryRequest.url}/api/v2/auth/me`];
  await sequentialLatency(urls, headers, SEQUENTIAL_REQUESTS / 4);
  const [directLatency, gatewayLatency, everyRequestLatency] = await sequentialLatency(urls, headers, SEQUENTIAL_REQUESTS);
  console.log(`direct (academic)  p50 ${directLatency.p50.toFixed(2)} ms   p99 ${directLatency.p99.toFixed(2)} ms`);
  console.log(`through gateway    p50 ${gatewayLatency.p50.toFixed(2)} ms   p99 ${gatewayLatency.p99.toFixed(2)} ms`);
  console.log(`gateway, session checked in Redis on every request: p50 ${everyRequestLatency.p50.toFixed(2)} ms   p99 ${everyRequestLatency.p99.toFixed(2)} ms`);
  console.log(`session check (revocations) per request, when not remembered: +${(everyRequestLatency.p50 - gatewayLatency.p50).toFixed(2)} ms at p50 (remembered 2 s per token by default)`);
  console.log(`\nadded latency at p50: ${(gatewayLatency.p50 - directLatency.p50).toFixed(2)} ms (target < 2 ms); at p99: ${(gatewayLatency.p99 - directLatency.p99).toFixed(2)} ms`);
} finally {
  await gateway.stop();
  await gatewayCheckingEveryRequest.stop();
  await academic.stop();
  await dropTestDatabase(academic.ctx.config.DATABASE_URL);
  if (infra.started.length) await stopInfra('test', infra.started);
}
process.exit(0);
