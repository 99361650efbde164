// `npm run bench:tracing`: what tracing costs, same run. Academic and three gateways in front of it,
// as processes started like `npm start` starts them (tools/system/harness.ts): a gateway with tracing
// off (no endpoint: the preload does nothing), one tracing 100% of requests and one 10%, both to a
// local OTLP receiver (tools/dev/otlp-receiver.ts). Academic exports too, following the gateway's
// decision (parent-based; what comes untraced from the off gateway stays untraced). Rounds of
// GET /api/v2/auth/me (gateway → academic: JWT check, a PostgreSQL read) alternate the three.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { DEMO, startTestSystem } from '../system/harness.ts';
import { login } from '../system/client.ts';
import { readSpans, startOtlpReceiver } from '../dev/otlp-receiver.ts';
import { median } from './support.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);

const dir = mkdtempSync(path.join(tmpdir(), 'academy-bench-tracing-'));
const receiver = await startOtlpReceiver({ file: path.join(dir, 'spans.jsonl'), port: 0 });
const traced = (ratio: number) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: String(ratio) });
const limits = { RATE_LIMIT_USER_PER_MINUTE: '100000000', RATE_LIMIT_IP_PER_MINUTE: '100000000' };
const system = await startTestSystem({
  name: 'benchtracing',
  redisDb: 11,
  // hours-bank and incidents only because the harness's seed waits for their replicas.
  backends: ['academic', 'hours-bank', 'incidents'],
  // Academic's own roots (requests with no parent) are not sampled: it records only what a tracing gateway decided to.
  env: { academic: { ...traced(1), OTEL_TRACES_SAMPLER: 'parentbased_always_off' }, gateway: limits },
  log: (line) => console.log(`[system] ${line}`),
});

try {
  const gateways = {
    'tracing off': system.gateway,
    'tracing 100%': (await system.addGateway(0, { ...limits, ...traced(1) })).url,
    'tracing 10%': (await system.addGateway(0, { ...limits, ...traced(0.1) })).url,
  };
  const { accessToken } = await login(system.gateway, DEMO.admin);
  const headers = { authorization: `Bearer ${accessToken}` };
  const run = (url: string, duration: number) =>
    autocannon({ url: `${url}/api/v2/auth/me`, headers, connections: CONNECTIONS, duration, workers: 1 }) as unknown as Promise<autocannon.Result>;
  for (const url of Object.values(gateways)) await run(url, 2);

  console.log(`\nGET /api/v2/auth/me through the gateway, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION_S} s each (order rotated per round)`);
  const names = Object.keys(gateways) as (keyof typeof gateways)[];
  const results = Object.fromEntries(names.map((name) => [name, [] as autocannon.Result[]])) as Record<keyof typeof gateways, autocannon.Result[]>;
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length];
      results[name].push(await run(gateways[name], DURATION_S));
    }
  }
  const rps = (name: keyof typeof gateways) => median(results[name].map((r) => r.requests.total / DURATION_S));
  for (const name of names) {
    const errors = results[name].reduce((sum, r) => sum + r.errors + r.non2xx, 0);
    console.log(`${name.padEnd(14)} ${rps(name).toFixed(0).padStart(7)} req/s (median of rounds)   p99 ${median(results[name].map((r) => r.latency.p99))} ms   errors ${errors}`);
  }
  const full = rps('tracing 100%') / rps('tracing off');
  const tenth = rps('tracing 10%') / rps('tracing off');
  console.log(`\nthroughput with tracing at 100%: ${(full * 100).toFixed(1)}% of off (target >= 90%)`);
  console.log(`throughput with tracing at 10%:  ${(tenth * 100).toFixed(1)}% of off (target >= 97%)`);
  await new Promise((resolve) => setTimeout(resolve, 6000));
  const spans = readSpans(receiver.file);
  console.log(`(${spans.length} spans received: ${spans.filter((s) => s.service === 'gateway').length} gateway, ${spans.filter((s) => s.service === 'academic').length} academic)`);
} finally {
  await system.stop();
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
