// `npm run bench:replicas`: hours-bank through the gateway with one gateway and one instance (1 × 1)
// and with two gateways in front of two instances (2 × 2), in the same run, on the same database:
// (w) POST completed/pending hours over 1,000 banks, (r) the bank reading (GET, its totals and
// transaction listing) over the same banks. 32 connections in all (split over the gateways in 2 × 2),
// runs interleaved, medians of BENCH_ROUNDS. Prints ops/s, p99, the 2 × 2 / 1 × 1 ratio, and the CPU
// time each process took per 1,000 requests (where the time goes). Starts the processes with the
// system test harness (tools/system/harness.ts): hours-bank and gateways only, replicas inserted.
import autocannon from 'autocannon';
import { createTokenSigner, loadKeyRing } from '@academy/auth';
import { ensureInfra, stopInfra } from '@academy/infra';
import { startTestSystem, type SystemProcess } from '../system/harness.ts';
import { cpuMs, hoursBankPosts, medianOps, type OpsFigures } from './support.ts';

const CONNECTIONS = 32;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const BANKS = 1000;
/** Employees of the bench (far from any other id). */
const FIRST_EMPLOYEE = 100_001;

interface Figures extends OpsFigures {
  /** CPU milliseconds per 1,000 requests, by process. */
  cpu: Record<string, number>;
}

const started = Date.now();
const infra = await ensureInfra('test', (line) => console.log(`[infra] ${line}`), ['postgres', 'redis']);
const system = await startTestSystem({
  name: 'bench_replicas',
  instances: 2,
  redisDb: 15,
  backends: ['hours-bank'],
  seed: false,
  env: {
    gateway: { RATE_LIMIT_IP_PER_MINUTE: '100000000', RATE_LIMIT_USER_PER_MINUTE: '100000000' },
    'hours-bank': { DATABASE_POOL_MAX: '16' },
    all: { LOG_LEVEL: 'warn' },
  },
  log: (line) => console.log(`[system] ${line}`),
});

try {
  await system.sql('hours-bank', `insert into school_courses (id, name, start_date, end_date, deleted, source_version) values (1, 'bench', '2025-09-01', '2027-06-30', false, now())`);
  await system.sql('hours-bank', `insert into employees (id, name, active, deleted, source_version) select g, 'e' || g, true, false, now() from generate_series($1::int, $1::int + $2::int - 1) g`, [FIRST_EMPLOYEE, BANKS]);
  // The banks exist already (as after a first addition each): the runs measure operations, not creations.
  await system.sql(
    'hours-bank',
    `insert into hours_banks (employee_id, school_course_id, pending_minutes, completed_minutes, created_at, updated_at)
     select g, 1, 0, 0, now(), now() from generate_series($1::int, $1::int + $2::int - 1) g`,
    [FIRST_EMPLOYEE, BANKS],
  );
  const signer = createTokenSigner(loadKeyRing(system.keys.dir, [system.keys.kid], system.keys.kid), { issuer: 'academy', audience: 'academy-api' });
  const authorization = `Bearer ${signer.sign({ sub: '1', role: 'admin' }, 900)}`;
  const employeeOf = (n: number) => FIRST_EMPLOYEE + ((n * 7919) % BANKS);

  const writes = (): autocannon.Request[] => hoursBankPosts(authorization, employeeOf);
  const reads = (): autocannon.Request[] => {
    let n = 0;
    return [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `/api/v2/hours-bank/${employeeOf(n++)}`, headers: { authorization } }) }];
  };

  const gateways = [system.process('gateway', 0), system.process('gateway', 1)];
  const services = [system.process('hours-bank', 0), system.process('hours-bank', 1)];
  const watched: SystemProcess[] = [...gateways, ...services];

  /** `CONNECTIONS` connections spread over the given gateways, for DURATION_S. */
  const run = async (label: string, over: SystemProcess[], requests: () => autocannon.Request[]): Promise<Figures> => {
    const cpuBefore = watched.map((p) => cpuMs(p.pid));
    const benchBefore = process.cpuUsage();
    const results = await Promise.all(
      over.map((gateway) => autocannon({ url: gateway.url, connections: CONNECTIONS / over.length, duration: DURATION_S, requests: requests() })),
    );
    const bench = process.cpuUsage(benchBefore);
    const total = results.reduce((sum, r) => sum + r.requests.total, 0);
    const cpu: Record<string, number> = {};
    watched.forEach((p, i) => {
      const used = cpuMs(p.pid) - cpuBefore[i]!;
      if (used > 0) cpu[`${p.name}#${p.instance}`] = Math.round((1000 * used) / Math.max(total, 1));
    });
    cpu['load generator'] = Math.round((1000 * (bench.user + bench.system)) / 1000 / Math.max(total, 1));
    const figures: Figures = {
      opsPerSec: results.reduce((sum, r) => sum + r.requests.average, 0),
      // The slower gateway's p99 (autocannon gives percentiles, not mergeable histograms).
      p99Ms: Math.max(...results.map((r) => r.latency.p99)),
      errors: results.reduce((sum, r) => sum + r.errors + r.timeouts + r.non2xx, 0),
      cpu,
    };
    console.log(`  ${label}: ${Math.round(figures.opsPerSec)} ops/s, p99 ${figures.p99Ms} ms, ${figures.errors} errors; CPU ms per 1,000 requests ${JSON.stringify(cpu)}`);
    return figures;
  };

  // One request through each gateway first: a refused request would make the figures meaningless.
  for (const gateway of gateways) {
    const response = await fetch(`${gateway.url}/api/v2/hours-bank/${FIRST_EMPLOYEE}/completed`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify({ time: '1m' }),
    });
    if (!response.ok) throw new Error(`gateway#${gateway.instance} answered ${response.status}: ${await response.text()}`);
  }

  console.log(`\nreplicas benchmark: ${CONNECTIONS} connections, ${DURATION_S} s per run, ${ROUNDS} interleaved rounds, ${BANKS} banks`);
  // Warm-up (not measured): the JIT and the pools of both sets.
  await Promise.all(gateways.map((g) => autocannon({ url: g.url, connections: 8, duration: 2, requests: writes() })));
  const runs = { w11: [] as Figures[], w22: [] as Figures[], r11: [] as Figures[], r22: [] as Figures[] };
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`round ${round}/${ROUNDS}`);
    runs.w11.push(await run('(w) writes   1 × 1', [gateways[0]!], writes));
    runs.w22.push(await run('(w) writes   2 × 2', gateways, writes));
    runs.r11.push(await run('(r) listing  1 × 1', [gateways[0]!], reads));
    runs.r22.push(await run('(r) listing  2 × 2', gateways, reads));
  }
  const summary = medianOps;
  const [w11, w22, r11, r22] = [runs.w11, runs.w22, runs.r11, runs.r22].map(summary);
  const row = (one: ReturnType<typeof summary>, two: ReturnType<typeof summary>) => ({
    '1×1 ops/s': Math.round(one.opsPerSec),
    '1×1 p99 ms': one.p99Ms,
    '2×2 ops/s': Math.round(two.opsPerSec),
    '2×2 p99 ms': two.p99Ms,
    'ratio 2×2 / 1×1': Number((two.opsPerSec / one.opsPerSec).toFixed(2)),
    errors: one.errors + two.errors,
  });
  console.log(`\nresults (medians of ${ROUNDS} rounds; ${(await import('node:os')).cpus().length} cores)`);
  console.table({ '(w) POST hours, 1,000 banks': row(w11!, w22!), '(r) GET bank (listing)': row(r11!, r22!) });
  const [check] = await system.sql<{ banks: number; rows: number }>(
    'hours-bank',
    'select count(*)::int banks, (select count(*)::int from hours_transactions) as rows from hours_banks',
  );
  console.log(`hours-bank wrote ${check!.rows} transactions on ${check!.banks} banks; total time ${Math.round((Date.now() - started) / 1000)} s`);
} finally {
  await system.stop();
  if (infra.started.length) await stopInfra('test', infra.started);
}
