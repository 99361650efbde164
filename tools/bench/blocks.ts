// `npm run bench:blocks`: content blocks through the gateway, as clients reach them. The academic
// service and the gateway run as their own processes (as in production, so neither shares an event
// loop with autocannon), on the test PostgreSQL, RabbitMQ and Redis, with a database of their own:
// 50,000 student blocks (2,000 students × 5 subjects × 5 blocks), 5,000 of them pending review.
//   1. GET /api/v2/blocks/pending: a filtered page (subject, 50 per page), one student's blocks, a
//      deep page (by number, by cursor, and by a cursor new each request: the page cache's miss), and
//      the whole unfiltered listing; at 1 and 16 clients. Then the listing statements' plans and their
//      PostgreSQL CPU an execution as the service runs them (prepared).
//   2. POST /api/v2/blocks/student-block/:id/review (approve) at 16 clients, each on a distinct block, after a
//      warm-up; the raw SQL baseline, the plain review, the keyed one and the review's floor (the same POST
//      refused before any query) in rounds, their order turned each round, each ratio paired within its
//      round (every pair printed, their median) (the open and blocked blocks are made pending first, half for
//      the service, half for the baseline; each round reviews them again).
// Baselines measured in the same run: a request the gateway proxies and academic answers without the
// database (a 400 after the token check), and the approve's own SQL (the service's read, then its
// one-statement write with the outbox row) in a raw `pg` loop at the same concurrency.
// Each run also reports the CPU time per request of the gateway, of academic and of the PostgreSQL
// backends (read from /proc): on a machine shared with other work, latency and req/s move with the
// load, CPU per request barely does.
// BENCH_DURATION (seconds per run, default 3); BENCH_REVIEW_ROUNDS
// (default 8); BENCH_REVIEW_ONLY=1: part 2 alone (the listing's scenarios, plans and statements skipped);
// BENCH_LISTING_ONLY=1: part 1 alone (the reviews skipped). OUTBOX_RELAY_SEQ_SCANS=on: academic's relay
// plans as before the seventh pass (sequential scans allowed on its connection), for a before/after.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { dataDir, ensureInfra, stopInfra } from '@academy/infra';
import { outboxInsertSql } from '@academy/messaging';
import { testConfig, tokenFor, dropTestDatabase } from '@academy/testing';
import { SettingsSchema } from '../../apps/academic/src/config.ts';
import { PendingCursor } from '@academy/contracts';
import { APPROVE_SQL, REVIEW_TARGET_SQL, pendingGroupsSql, pendingPageRowsSql } from '../../apps/academic/src/blocks/blocks.store.ts';
import { cpuMeter, cpuMs, eventSink, postgresCpuDelta, figuresOf, gatewayLimitsOff, getPaths, jwtEnv, loadAverage, quantile, startReady, startServiceProcess, stopAll, tenths, verdict, waitReady, type Figures } from './support.ts';

const CLIENTS = 16;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 3);
const STUDENTS = 2000;
const SUBJECTS = 5;
const BLOCKS_PER_SUBJECT = 5;

const started = performance.now();
const infra = await ensureInfra('test', (line) => console.log(`[infra] ${line}`), ['postgres', 'rabbitmq', 'redis']);
const config = await testConfig('bench_blocks', SettingsSchema);
const children: ChildProcess[] = [];
// Timestamps as PostgreSQL writes them (microseconds kept), as the service reads them: the review's write matches `closed_at` exactly.
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (value) => value);
const db = new pg.Pool({ connectionString: config.DATABASE_URL, max: CLIENTS });
let rabbit: { close(): Promise<void> } | undefined;

try {
  // The academic service migrates its database at start.
  // BENCH_CPU_PROF=<dir>: academic and the gateway write a CPU profile of the whole run there when they stop.
  const academic = await startServiceProcess('academic', {
    ...jwtEnv(config),
    DATABASE_URL: config.DATABASE_URL,
    DATABASE_POOL_MAX: String(CLIENTS + 4),
    RABBITMQ_URL: config.RABBITMQ_URL,
    EVENTS_EXCHANGE: config.EVENTS_EXCHANGE,
    REDIS_URL: config.REDIS_URL,
  }, { cpuProfile: true });
  children.push(academic.child);
  // Migrating a new database takes academic most of a minute on a loaded machine.
  await waitReady('academic', `${academic.url}/readyz`, 180_000);
  const gatewayService = await startReady('gateway', { ...jwtEnv(config), ACADEMIC_URL: academic.url, ...gatewayLimitsOff() }, { children, readyPath: '/healthz', cpuProfile: true });
  const [academicProcess, gatewayProcess, gateway] = [academic.child, gatewayService.child, gatewayService.url];
  // Stands for the notifications consumer, so the relay's block.approved publishes are routable; keeps only the newest.
  rabbit = await eventSink(config.EVENTS_EXCHANGE, 'block.#');

  // Data: 2,000 students in 5 subjects of one course, each with their teacher; every student has
  // closed 0–4 blocks of each subject; the next one is pending for half of the (student, subject) pairs.
  const loadStarted = performance.now();
  await db.query(`insert into school_courses (name, start_date, end_date, created_at) values ('2026-2027', '2026-09-01', '2027-06-30', now())`);
  await db.query(`insert into centers (name, created_at, updated_at) values ('Centro', now(), now())`);
  await db.query(`insert into employees (name, lastname, email, kind, active, created_at, updated_at) select 'Teacher', 'T' || g, 'teacher' || g || '@academy.test', 'teacher', true, now(), now() from generate_series(1, $1) g`, [SUBJECTS]);
  await db.query(`insert into subjects (name, active, created_at, updated_at) select 'Subject ' || g, true, now(), now() from generate_series(1, $1) g`, [SUBJECTS]);
  await db.query(`insert into blocks (subject_id, name, position) select s, 'Block ' || s || '.' || p, p from generate_series(1, $1) s, generate_series(1, $2) p`, [SUBJECTS, BLOCKS_PER_SUBJECT]);
  await db.query(`insert into guardians (name, lastname, email, active, created_at, updated_at) select 'Tutor', 'G' || g, 'tutor' || g || '@example.com', true, now(), now() from generate_series(1, $1) g`, [STUDENTS / 4]);
  await db.query(
    `insert into students (name, lastname, email, status, guardian_id, created_at, updated_at)
     select 'Student', 'S' || g, case when g % 3 = 0 then null else 'student' || g || '@example.com' end, 'active', case when g % 4 = 0 then g / 4 end, now(), now()
       from generate_series(1, $1) g`,
    [STUDENTS],
  );
  await db.query(
    `insert into registrations (student_id, school_course_id, subject_id, center_id, employee_id, status, created_at, updated_at)
     select st.id, 1, su.id, 1, su.id, 'active', now(), now() from students st cross join subjects su`,
  );
  await db.query(
    `insert into student_blocks (student_id, block_id, status, grade, employee_id, closed_at, approved_at, created_at, updated_at)
     select r.student_id, b.id,
            case when b.position <= d.done then 'closed'
                 when b.position = d.done + 1 and (r.student_id + r.subject_id) % 2 = 0 then 'pending'
                 when b.position = d.done + 1 then 'open' else 'blocked' end,
            case when b.position <= d.done + 1 then 5 + (r.student_id % 50) / 10.0 end,
            case when b.position <= d.done + 1 then r.employee_id end,
            case when b.position <= d.done + 1 then now() - (r.student_id * 5 + b.position) * interval '1 minute' end,
            case when b.position <= d.done then now() end,
            now(), now()
       from registrations r
       cross join lateral (select (r.student_id * 7 + r.subject_id) % ${BLOCKS_PER_SUBJECT} as done) d
       join blocks b on b.subject_id = r.subject_id`,
  );
  await db.query('vacuum analyze');
  const [counts] = (await db.query<{ total: number; pending: number }>(`select count(*)::int as total, (count(*) filter (where status = 'pending'))::int as pending from student_blocks`)).rows;
  console.log(`\nData: ${counts!.total} student blocks, ${counts!.pending} pending (loaded in ${Math.round(performance.now() - loadStarted)} ms)`);

  const headers = { authorization: `Bearer ${tokenFor({ role: 'admin', sub: '1' }, 900)}` };

  interface Cpu {
    gateway: number;
    academic: number;
    postgres: number;
  }
  /** Runs `work` and divides the CPU the gateway, academic and the database's backends spent meanwhile by `count()` requests. */
  const measured = cpuMeter({ gateway: gatewayProcess, academic: academicProcess }, db);
  const cpuColumns = (cpu: Cpu) => ({ 'gateway cpu ms/req': +cpu.gateway.toFixed(2), 'academic cpu ms/req': +cpu.academic.toFixed(2), 'postgres cpu ms/req': +cpu.postgres.toFixed(2) });
  /** GETs through the gateway; `pathOf(i)` gives the i-th request's path. The baseline answers 400 on purpose: only the other statuses count as errors. */
  const getRun = async (pathOf: (i: number) => string, connections: number, expectStatus = 200): Promise<Figures & { cpu: Cpu }> => {
    const { result, cpu } = await measured(
      (done: autocannon.Result) => done.requests.total,
      () => getPaths(gateway, pathOf, { connections, duration: DURATION_S, headers }),
    );
    return { ...figuresOf(result, expectStatus), cpu };
  };

  if (process.env.BENCH_REVIEW_ONLY !== '1') {
    // The deep page by cursor: the page after page 14's nextCursor (page 15 of 20), of each subject, walked once here.
    const deepCursor: Record<number, string> = {};
    for (let subject = 1; subject <= SUBJECTS; subject++) {
      let cursor = '';
      for (let page = 1; page <= 14; page++) {
        const answer = await fetch(`${gateway}/api/v2/blocks/pending?subjectId=${subject}&limit=50${cursor ? `&after=${cursor}` : ''}`, { headers });
        cursor = ((await answer.json()) as { nextCursor: string }).nextCursor;
      }
      deepCursor[subject] = cursor;
    }

    /**
     * A cursor not asked before: page 14's last block of the subject, its close time a few microseconds
     * earlier each time (blocks here close minutes apart, so the page after it holds the same rows).
     */
    let fresh = 0;
    const newCursor = (subject: number) => {
      const [micros, id] = deepCursor[subject]!.split('.') as [string, string];
      return `${Number(micros) - (++fresh % 50_000_000)}.${id}`;
    };
    let studentsAsked = 0;
    const BADGE_CLIENTS = 10;
    const scenarios: { name: string; path: (i: number) => string; connections: number[]; expectStatus?: number }[] = [
      { name: 'baseline: proxied, token checked, no database (400)', path: () => '/api/v2/blocks/pending?studentId=abc', connections: [1, BADGE_CLIENTS, CLIENTS], expectStatus: 400 },
      { name: 'filtered page: subjectId, 50 per page', path: (i) => `/api/v2/blocks/pending?subjectId=${1 + (i % SUBJECTS)}&limit=50`, connections: [1, CLIENTS] },
      // A student not asked before in the run, each request (through the 2,000, then again): the page cache's miss, as the computed cursor page below.
      { name: "one student's pending blocks", path: () => `/api/v2/blocks/pending?studentId=${1 + ((++studentsAsked * 7919) % STUDENTS)}`, connections: [1, CLIENTS] },
      { name: 'deep page: subjectId, page 15 of 20', path: (i) => `/api/v2/blocks/pending?subjectId=${1 + (i % SUBJECTS)}&limit=50&page=15`, connections: [CLIENTS] },
      { name: 'deep page by cursor: subjectId, after page 14', path: (i) => `/api/v2/blocks/pending?subjectId=${1 + (i % SUBJECTS)}&limit=50&after=${deepCursor[1 + (i % SUBJECTS)]}`, connections: [1, CLIENTS] },
      // The page cache's miss: every request a cursor never asked before (page 14's last close time, ids
      // after it), so every answer is computed by the page's statement, as after each change to the queue.
      { name: 'deep page by cursor, computed: a new cursor each', path: (i) => `/api/v2/blocks/pending?subjectId=${1 + (i % SUBJECTS)}&limit=50&after=${newCursor(1 + (i % SUBJECTS))}`, connections: [1, CLIENTS] },
      { name: `whole listing, unfiltered (${counts!.pending} blocks)`, path: () => '/api/v2/blocks/pending', connections: [1] },
      { name: 'badge: GET /api/v2/blocks/pending/count', path: () => '/api/v2/blocks/pending/count', connections: [BADGE_CLIENTS] },
    ];
    // Warm-up (JIT, pools, plans), not measured.
    await autocannon({ url: `${gateway}/api/v2/blocks/pending?subjectId=1&limit=50`, connections: CLIENTS, amount: 500, headers });

    console.log(`\n1. GET /api/v2/blocks/pending through the gateway, ${DURATION_S} s per run`);
    const listingRows: Record<string, unknown>[] = [];
    const baselineRps: Record<number, number> = {};
    for (const scenario of scenarios) {
      for (const connections of scenario.connections) {
        const run = await getRun(scenario.path, connections, scenario.expectStatus);
        if (scenario.expectStatus) baselineRps[connections] = run.rps;
        const baseline = baselineRps[connections];
        listingRows.push({
          scenario: scenario.name,
          clients: connections,
          'p50 ms': run.p50,
          'p99 ms': run.p99,
          'req/s': Math.round(run.rps),
          errors: run.errors,
          'vs baseline': baseline ? (run.rps / baseline).toFixed(2) : '-',
          ...cpuColumns(run.cpu),
        });
      }
    }
    console.table(listingRows);
    // Issue 32's targets for a filtered page, first or deep, at 16 clients: PostgreSQL ≤ 1 ms and academic ≤ 1.5 ms of CPU a request, p99 within 2× the floor's.
    const floorAt16 = listingRows.find((row) => String(row.scenario).startsWith('baseline') && row.clients === CLIENTS)!;
    for (const row of listingRows.filter((row) => ['filtered', "one student's", 'deep page'].some((prefix) => String(row.scenario).startsWith(prefix)) && row.clients === CLIENTS)) {
      const [pgCpu, academicCpu, p99] = [row['postgres cpu ms/req'] as number, row['academic cpu ms/req'] as number, row['p99 ms'] as number];
      const ratio = p99 / Math.max(1, floorAt16['p99 ms'] as number);
      const met = pgCpu <= 1 && academicCpu <= 1.5 && ratio <= 2;
      console.log(
        `${row.scenario}, ${CLIENTS} clients: PostgreSQL ${pgCpu} ms (≤ 1), academic ${academicCpu} ms (≤ 1.5) CPU a request; p99 ${p99} ms, ×${ratio.toFixed(2)} the floor's ${floorAt16['p99 ms']} ms (≤ ×2): ${(row.errors as number) > 0 ? 'INVALID' : met ? 'MET' : 'NOT MET'}`,
      );
    }
    const whole = listingRows.find((row) => String(row.scenario).startsWith('whole listing'))!;
    const wholeCpu = (whole['gateway cpu ms/req'] as number) + (whole['academic cpu ms/req'] as number) + (whole['postgres cpu ms/req'] as number);
    const per100 = (100 * wholeCpu) / counts!.pending;
    console.log(`whole listing: ${wholeCpu.toFixed(1)} ms CPU a request in the gateway, academic and PostgreSQL, ${per100.toFixed(2)} ms per 100 blocks (target < 5): ${(whole.errors as number) > 0 ? 'INVALID' : per100 < 5 ? 'MET' : 'NOT MET'}`);

    // Where PostgreSQL's time goes: the service's own statements under EXPLAIN (ANALYZE, BUFFERS), each run once warm.
    const positionalSql = (sql: string) => {
      let n = 0;
      return sql.replace(/\?/g, () => `$${++n}`);
    };
    const explained: Record<string, unknown>[] = [];
    const explain = async (name: string, statement: { sql: string; params: unknown[] }) => {
      await db.query(positionalSql(statement.sql), statement.params);
      const { rows } = await db.query<{ 'QUERY PLAN': [{ 'Planning Time': number; 'Execution Time': number; Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number } }] }>(
        `explain (analyze, buffers, format json) ${positionalSql(statement.sql)}`,
        statement.params,
      );
      const [plan] = rows[0]!['QUERY PLAN'];
      explained.push({ statement: name, 'planning ms': plan['Planning Time'], 'execution ms': plan['Execution Time'], 'shared hit blocks': plan.Plan['Shared Hit Blocks'], 'read blocks': plan.Plan['Shared Read Blocks'] });
    };
    const page = (query: { subjectId?: number; studentId?: number; page?: number; after?: PendingCursor }) => pendingPageRowsSql({ limit: 50, ...query });
    const studentListing = (studentId: number) => pendingPageRowsSql({ studentId });
    await explain('filtered page: subjectId 1, 50', page({ subjectId: 1 }));
    await explain("one student's whole listing", studentListing(8));
    await explain('deep page: subjectId 1, page 15', page({ subjectId: 1, page: 15 }));
    await explain('deep page by cursor: subjectId 1, after page 14', page({ subjectId: 1, after: PendingCursor.parse(deepCursor[1]) }));
    await explain('unfiltered page, after page 14', page({ after: PendingCursor.parse(deepCursor[1]) }));
    await explain('whole listing, its groups', pendingGroupsSql({}));
    console.log('\nEXPLAIN (ANALYZE, BUFFERS) of the listing statements, warm (planned here; the service runs them prepared, planned once per connection):');
    console.table(explained);

    // What a page costs PostgreSQL as the service runs it: each statement a named prepared statement on a
    // connection of its own (generic plan after five runs), its backend's CPU over 300 runs, the
    // statements interleaved 10 runs at a time so that the machine's load weighs on all of them alike.
    const statements: { name: string; sql: string; params: unknown[] }[] = [
      { name: "the page cache's hit: the queue's version", sql: `select epoch::text as epoch, version::text as version from listing_versions where name = 'pending_blocks'`, params: [] },
      { name: 'filtered page: subjectId 1, 50', ...page({ subjectId: 1 }) },
      { name: 'deep page by cursor: subjectId 1, after page 14', ...page({ subjectId: 1, after: PendingCursor.parse(deepCursor[1]) }) },
      { name: 'deep page: subjectId 1, page 15', ...page({ subjectId: 1, page: 15 }) },
      { name: "one student's whole listing", ...studentListing(8) },
    ];
    const prepared = await Promise.all(
      statements.map(async (statement) => {
        const client = await db.connect();
        const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
        return { statement, client, pid, cpu: 0, runs: 0 };
      }),
    );
    const runPrepared = (one: (typeof prepared)[number], times: number) =>
      Array.from({ length: times }).reduce<Promise<unknown>>((previous) => previous.then(() => one.client.query({ name: 'bench_page', text: positionalSql(one.statement.sql), values: one.statement.params })), Promise.resolve());
    for (const one of prepared) await runPrepared(one, 10);
    for (let round = 0; round < 30; round++) {
      for (const one of prepared) {
        const before = cpuMs(one.pid);
        await runPrepared(one, 10);
        one.cpu += cpuMs(one.pid) - before;
        one.runs += 10;
      }
    }
    const plans = await Promise.all(prepared.map(async (one) => (await one.client.query<{ generic: string; custom: string }>(`select generic_plans as generic, custom_plans as custom from pg_prepared_statements where name = 'bench_page'`)).rows[0]));
    prepared.forEach((one) => one.client.release(true));
    console.log('\nPostgreSQL CPU an execution, as the service runs them (named prepared statements, 300 runs each, interleaved):');
    console.table(prepared.map((one, i) => ({ statement: one.statement.name, 'postgres cpu ms/run': +(one.cpu / one.runs).toFixed(3), 'generic plans': Number(plans[i]?.generic), 'custom plans': Number(plans[i]?.custom) })));

    const filtered = listingRows.filter((row) => ['filtered', "one student's", 'deep page'].some((prefix) => String(row.scenario).startsWith(prefix)));
    const worstFiltered = Math.max(...filtered.map((row) => row['p99 ms'] as number));
    const listingErrors = listingRows.reduce((sum, row) => sum + (row.errors as number), 0);
    console.log(`worst p99 of a filtered page, page 1 or deep: ${worstFiltered} ms (target < 50 ms): ${verdict(worstFiltered, 50, listingErrors)}`);
    const badge = listingRows.find((row) => String(row.scenario).startsWith('badge'))!;
    console.log(`badge count p99 at ${BADGE_CLIENTS} clients: ${badge['p99 ms']} ms (target < 10 ms): ${(badge.errors as number) > 0 ? 'INVALID' : (badge['p99 ms'] as number) < 10 ? 'MET' : 'NOT MET'}`);
    // The floor of this machine: a request the gateway proxies and academic refuses before any query, at the same clients.
    const floor = listingRows.find((row) => String(row.scenario).startsWith('baseline') && row.clients === BADGE_CLIENTS)!;
    console.log(
      `badge against the floor at ${BADGE_CLIENTS} clients (proxied, refused before any query): p50 ${badge['p50 ms']} vs ${floor['p50 ms']} ms, p99 ${badge['p99 ms']} vs ${floor['p99 ms']} ms (×${((badge['p99 ms'] as number) / Math.max(1, floor['p99 ms'] as number)).toFixed(2)})`,
    );

  }

  if (process.env.BENCH_LISTING_ONLY !== '1') {
    // Review: distinct pending blocks, oldest first; half for the service, half for the raw baseline.
    // Open and blocked blocks become pending (about 15,000 for the service, as many for the baseline), then
    // vacuumed and analysed: without, autovacuum's pass over the updated rows (and a stale plan) landed in
    // the first review run's PostgreSQL CPU, and no other.
    await db.query(`update student_blocks set status = 'pending', closed_at = now() - id * interval '1 second' where status in ('open', 'blocked')`);
    await db.query('vacuum analyze student_blocks');
    const pendingIds = (await db.query<{ id: number }>(`select id from student_blocks where status = 'pending' order by id`)).rows.map((row) => row.id);
    const serviceIds = pendingIds.filter((_, i) => i % 2 === 0);
    const rawIds = pendingIds.filter((_, i) => i % 2 === 1);
    // Rounds of DURATION_S: more, shorter paired rounds (each pair printed) rather than a few longer ones.
    const REVIEW_S = DURATION_S;

    // Bulk review: 100 approvals in one request through the gateway, three times, on blocks set aside.
    const BULK_ITEMS = 100;
    const bulkIds = pendingIds.splice(pendingIds.length - 3 * BULK_ITEMS, 3 * BULK_ITEMS);
    const bulkRows: Record<string, unknown>[] = [];
    for (let round = 0; round < 3; round++) {
      const ids = bulkIds.slice(round * BULK_ITEMS, (round + 1) * BULK_ITEMS);
      const t0 = performance.now();
      const answer = await fetch(`${gateway}/api/v2/blocks/review`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ items: ids.map((studentBlockId) => ({ studentBlockId, action: 'approve' })) }),
      });
      const body = (await answer.json()) as { reviewed?: number };
      bulkRows.push({ round: round + 1, status: answer.status, reviewed: body.reviewed ?? 0, ms: Math.round(performance.now() - t0) });
    }
    const [bulkCheck] = (
      await db.query<{ approved: number; events: number; distinct: number }>(
        `select (select count(*)::int from student_blocks where id = any($1::int[]) and status = 'closed') as approved,
                (select count(*)::int from outbox where type = 'block.approved' and (envelope->'data'->>'studentBlockId')::int = any($1::int[])) as events,
                (select count(distinct (envelope->'data'->>'studentBlockId'))::int from outbox where type = 'block.approved' and (envelope->'data'->>'studentBlockId')::int = any($1::int[])) as distinct`,
        [bulkIds],
      )
    ).rows;
    console.log(`\n2a. POST /api/v2/blocks/review, ${BULK_ITEMS} approvals a request, through the gateway`);
    console.table(bulkRows);
    const slowestBulk = Math.max(...bulkRows.map((row) => row.ms as number));
    console.log(
      `bulk review: ${bulkCheck!.approved} of ${bulkIds.length} approved, ${bulkCheck!.events} block.approved events for ${bulkCheck!.distinct} blocks (one each: the mails follow the events); slowest ${slowestBulk} ms (target < 2000 ms): ${bulkCheck!.approved === bulkIds.length && bulkCheck!.events === bulkIds.length && bulkCheck!.distinct === bulkIds.length ? (slowestBulk < 2000 ? 'MET' : 'NOT MET') : 'INVALID'}`,
    );

    console.log(`\n2. POST /api/v2/blocks/student-block/:id/review (approve), ${CLIENTS} clients, ${REVIEW_S} s a run, each on a pending block`);
    // Besides the gateway, academic and PostgreSQL, a review makes the bench's own process work (autocannon;
    // the raw loop's pg client), the broker (the relay publishes each review's event) and Redis (the
    // gateway's rate-limit leases): all on the same cores. The broker and Redis are the test servers,
    // shared with whatever else runs on the machine, so their figures hold that work too.
    const serverPid = (file: string) => {
      try {
        return Number(readFileSync(dataDir('test', file), 'utf8').trim()) || undefined;
      } catch {
        return undefined;
      }
    };
    const meter = cpuMeter({ gateway: gatewayProcess, academic: academicProcess, bench: process, broker: { pid: serverPid('rabbitmq/pid') }, redis: { pid: serverPid('redis.pid') } }, db);
    /** The CPU of the database's autovacuum workers (part of `postgres`): a pass that falls into one run and not the other of a pair weighs on its ratio. */
    const autovacuumCpu = async () =>
      new Map((await db.query<{ pid: number }>(`select pid from pg_stat_activity where datname = current_database() and backend_type = 'autovacuum worker'`)).rows.map((row) => [row.pid, cpuMs(row.pid)]));
    /**
     * The backend of academic's relay (its LISTEN connection, where it claims and marks the outbox's rows;
     * found by its statements once the warm-up has run): part of `postgres`, the PostgreSQL work a review
     * adds to the raw loop's besides its two statements.
     */
    let relayPids: number[] = [];
    const findRelay = async () =>
      (relayPids = (
        await db.query<{ pid: number }>(
          `select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend'
              and (query like 'LISTEN%' or query like 'with claimed as%' or query like 'update outbox set published_at%')`,
        )
      ).rows.map((row) => row.pid));
    const relayCpu = () => relayPids.reduce((sum, pid) => sum + cpuMs(pid), 0);
    type ReviewCpu = Cpu & { bench: number; broker: number; redis: number; autovacuum: number; relay: number };
    const reviewMeter = async <T>(count: (result: T) => number, work: () => Promise<T>): Promise<{ result: T; cpu: ReviewCpu }> => {
      const [before, relayBefore] = [await autovacuumCpu(), relayCpu()];
      const { result, cpu } = await meter(count, work);
      const n = Math.max(1, count(result));
      return { result, cpu: { ...cpu, autovacuum: postgresCpuDelta(before, await autovacuumCpu()) / n, relay: (relayCpu() - relayBefore) / n } };
    };
    let next = 0;
    let rawNext = 0;
    /** Keys are new each round: the blocks are reviewed again (`reviewAgain`), and a key used before would replay. */
    let keyRound = 0;
    /** Approvals through the gateway, each on the next of the service's blocks; `keyed`: with an Idempotency-Key on each. */
    const approvals = (keyed: boolean, run: Partial<autocannon.Options>) =>
      autocannon({
        url: gateway,
        connections: CLIENTS,
        ...run,
        requests: [
          {
            method: 'POST',
            setupRequest: (request) => {
              const id = serviceIds[next++] ?? 0;
              return {
                ...request,
                path: `/api/v2/blocks/student-block/${id}/review`,
                headers: { ...headers, 'content-type': 'application/json', ...(keyed ? { 'idempotency-key': `bench-review-${keyRound}-${id}` } : {}) },
                body: JSON.stringify({ action: 'approve' }),
              };
            },
          },
        ],
      });
    // Warm-up, not measured: each statement is prepared, then planned five times for its values before
    // PostgreSQL settles on a generic plan, on each of academic's pool connections; the first run measured
    // all of that (and the keyed run after it none), hence a keyed review "faster" than the plain one.
    await approvals(false, { amount: 400 });
    await approvals(true, { amount: 400 });
    await findRelay();
    console.log(
      `  academic's relay: PostgreSQL backend ${relayPids.join(', ') || 'not found'}; ${process.env.OUTBOX_RELAY_SEQ_SCANS === 'on' ? 'sequential scans allowed on its connection (OUTBOX_RELAY_SEQ_SCANS=on: as before)' : 'no sequential scan on its connection'}`,
    );

    /**
     * Until the relay has published every review's event: a run's events are published partly after it
     * ends, and without this wait the next run paid for them (academic's relay, PostgreSQL's marks). The
     * keyed run, always right after the plain one, paid for the plain run's events: hence "keyed 83% of
     * without" in one run and 102% in another. Now each run starts with the outbox drained.
     */
    const drained = async () => {
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline && (await db.query<{ n: number }>(`select count(*)::int as n from outbox where published_at is null`)).rows[0]!.n > 0) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    // Raw baseline: the service's own two statements per block (the read, then the conditional write
    // with its outbox row), straight from pg. Its outbox rows are marked published so the relay leaves them.
    const positional = (sql: string) => {
      let n = 0;
      return sql.replace(/\?/g, () => `$${++n}`);
    };
    const targetSql = positional(REVIEW_TARGET_SQL);
    const publishedInsert = `${outboxInsertSql().replace(') select', ', published_at) select')}, now()`;
    if (!APPROVE_SQL.includes(outboxInsertSql())) throw new Error('bench: the approval statement no longer inserts its outbox row with outboxInsertSql()');
    const approveSql = positional(APPROVE_SQL.replace(outboxInsertSql(), publishedInsert));
    const rawRun = async () => {
      const latencies: number[] = [];
      let errors = 0;
      const started = performance.now();
      const { cpu } = await reviewMeter(() => latencies.length, () => Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          const connection = await db.connect();
          try {
            for (let i = rawNext++; i < rawIds.length && performance.now() - started < REVIEW_S * 1000; i = rawNext++) {
              const id = rawIds[i]!;
              const t0 = performance.now();
              try {
                const { rows } = await connection.query<{ closedAt: string; nextBlockId: number | null }>(targetSql, [id]);
                const written = await connection.query<{ reviewed: number }>(approveSql, [new Date().toISOString(), 1, id, rows[0]!.closedAt, rows[0]!.nextBlockId, randomUUID(), 'block.approved', JSON.stringify({ data: rows[0] }), null]);
                if (written.rows[0]!.reviewed !== 1) throw new Error(`block ${id} not reviewed`);
                latencies.push(performance.now() - t0);
              } catch {
                errors++;
              }
            }
          } finally {
            connection.release();
          }
        }),
      ));
      const seconds = (performance.now() - started) / 1000;
      latencies.sort((a, b) => a - b);
      const at = (q: number) => tenths(quantile(latencies, q));
      return { p50: at(0.5), p99: at(0.99), rps: latencies.length / seconds, errors, cpu };
    };
    // The CPU of a service run counts until its events are published (`drained`): the relay's passes and the
    // broker's work for the run's last reviews come after its window.
    const serviceRun = async (keyed: boolean) => {
      const { result, cpu } = await reviewMeter(
        (done: autocannon.Result) => done['2xx'],
        async () => {
          const done = await approvals(keyed, { duration: REVIEW_S });
          await drained();
          return done;
        },
      );
      return { ...figuresOf(result), cpu, ok: result['2xx'] };
    };
    /**
     * The review's floor: the same POST through the gateway, authenticated, routed, its body parsed, and
     * refused by academic before any query (`{ action: 'nope' }`: 400 INVALID_ACTION). What a review costs
     * the two processes beyond it is the use case, its statements, its answer and its event.
     */
    const floorRun = async () => {
      const { result, cpu } = await reviewMeter(
        (done: autocannon.Result) => done.requests.total,
        () =>
          autocannon({
            url: gateway,
            connections: CLIENTS,
            duration: REVIEW_S,
            requests: [{ method: 'POST', path: `/api/v2/blocks/student-block/${serviceIds[0]}/review`, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ action: 'nope' }) }],
          }),
      );
      return { ...figuresOf(result, 400), cpu };
    };
    /**
     * The blocks reviewed since the last call pending again (their close kept), vacuumed, not measured: each
     * round reviews the same blocks again, so rounds can be as many as asked whatever the rate (before, five
     * rounds took most of the 30,000 blocks at a quiet machine's rate).
     */
    const reviewAgain = async () => {
      const used = [...serviceIds.slice(0, next), ...rawIds.slice(0, rawNext)];
      await db.query(`update student_blocks set status = 'pending', approved_at = null, reviewed_by_user_id = null, updated_at = now() where id = any($1::int[]) and status = 'closed'`, [used]);
      await db.query('vacuum student_blocks');
      [next, rawNext] = [0, 0];
      keyRound++;
    };

    // Rounds of the four runs. The plain review sits between the raw baseline and the keyed review, and the
    // order turns each round (raw, plain, keyed, floor; then floor, keyed, plain, raw), so that each ratio is
    // of two runs side by side, each of them first in half the rounds, under the same load.
    const REVIEW_ROUNDS = Number(process.env.BENCH_REVIEW_ROUNDS ?? 8);
    type ServiceFigures = Awaited<ReturnType<typeof serviceRun>>;
    const rounds = {
      review: [] as ServiceFigures[],
      keyed: [] as ServiceFigures[],
      raw: [] as Awaited<ReturnType<typeof rawRun>>[],
      floor: [] as Awaited<ReturnType<typeof floorRun>>[],
      order: [] as string[],
      load: [] as string[],
      outbox: [] as string[],
    };
    /** The median (the mean of the two middle values for an even count). */
    const middle = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      const half = Math.floor(sorted.length / 2);
      return sorted.length % 2 ? sorted[half]! : (sorted[half - 1]! + sorted[half]!) / 2;
    };
    const pct = (a: number, b: number) => Math.round((100 * a) / b);
    const cpuTotal = (cpu: ReviewCpu) => cpu.gateway + cpu.academic + cpu.postgres + cpu.bench + cpu.broker + cpu.redis;
    const cpuText = (cpu: ReviewCpu) => `${[cpu.gateway, cpu.academic, cpu.postgres, cpu.bench, cpu.broker, cpu.redis].map((x) => x.toFixed(2)).join(' / ')}${cpu.relay >= 0.01 || cpu.autovacuum >= 0.01 ? ` (of PostgreSQL's: relay ${cpu.relay.toFixed(2)}, autovacuum ${cpu.autovacuum.toFixed(2)})` : ''}`;
    /**
     * What the relay's claims walk: the outbox's dead row versions (each event leaves two: the claim's and the
     * mark's), which a claim's index scan steps over until they are dead to every snapshot (then marked on the
     * index) or vacuumed; and the oldest transaction open on the server, which may hold them back. Read after
     * the plain run of each round.
     */
    let seqScansBefore = 0;
    const outboxState = async () => {
      const [dead] = (await db.query<{ dead: number | null; seq: number }>(`select n_dead_tup::int as dead, seq_scan::int as seq from pg_stat_user_tables where relname = 'outbox'`)).rows;
      // Sequential scans of the outbox since the last line, by any session (a backend reports them within a second or so).
      const seqScans = (dead?.seq ?? 0) - seqScansBefore;
      seqScansBefore = dead?.seq ?? 0;
      const [oldest] = (
        await db.query<{ seconds: number; here: boolean; state: string; query: string }>(
          `select extract(epoch from now() - xact_start)::float8 as seconds, datname = current_database() as here, state, left(regexp_replace(query, '\\s+', ' ', 'g'), 50) as query
             from pg_stat_activity where xact_start is not null and pid <> pg_backend_pid() order by xact_start limit 1`,
        )
      ).rows;
      // Of the whole server: another database's transaction holds back no row of this one, unless it is of the kinds that hold back every database's.
      const where = oldest?.here ? 'this database' : 'another database';
      return `outbox dead versions ${dead?.dead ?? '?'}, sequential scans since the last round ${seqScans}; oldest open transaction on the server ${oldest ? `${oldest.seconds.toFixed(1)} s, ${where} (${oldest.state}: ${oldest.query})` : 'none'}`;
    };
    // Counts from here: the warm-up's sequential scans of the outbox are not a round's.
    await outboxState();
    console.log('  CPU a request, ms: gateway / academic / PostgreSQL / the bench (client) / broker / Redis');
    for (let round = 1; round <= REVIEW_ROUNDS; round++) {
      await reviewAgain();
      const order = round % 2 === 1 ? (['raw', 'plain', 'keyed', 'floor'] as const) : (['floor', 'keyed', 'plain', 'raw'] as const);
      rounds.load.push(loadAverage().split(' ')[0]!);
      for (const run of order) {
        await drained();
        if (run === 'raw') rounds.raw.push(await rawRun());
        else if (run === 'floor') rounds.floor.push(await floorRun());
        else (run === 'keyed' ? rounds.keyed : rounds.review).push(await serviceRun(run === 'keyed'));
        if (run === 'plain') rounds.outbox.push(await outboxState());
      }
      rounds.order.push(order.join(', '));
      const [r, k, w, f] = [rounds.review.at(-1)!, rounds.keyed.at(-1)!, rounds.raw.at(-1)!, rounds.floor.at(-1)!];
      console.log(
        `  round ${round}/${REVIEW_ROUNDS} (${order.join(', ')}; load ${rounds.load.at(-1)}): review ${Math.round(r.rps)} req/s, raw SQL ${Math.round(w.rps)} → ${pct(r.rps, w.rps)}%; keyed ${Math.round(k.rps)} → ${pct(k.rps, r.rps)}% of the review; floor ${Math.round(f.rps)} req/s\n` +
          `    CPU review ${cpuText(r.cpu)}; keyed ${cpuText(k.cpu)}; raw ${cpuText(w.cpu)}; floor ${cpuText(f.cpu)}\n` +
          `    after the plain run: ${rounds.outbox.at(-1)}`,
      );
    }
    const medianCpu = (runs: { cpu: ReviewCpu }[]): ReviewCpu => {
      const of = (name: keyof ReviewCpu) => middle(runs.map((x) => x.cpu[name]));
      return { gateway: of('gateway'), academic: of('academic'), postgres: of('postgres'), bench: of('bench'), broker: of('broker'), redis: of('redis'), autovacuum: of('autovacuum'), relay: of('relay') };
    };
    const medianFigures = <F extends { p50: number; p99: number; rps: number; errors: number; cpu: ReviewCpu }>(runs: F[]) => ({
      p50: middle(runs.map((x) => x.p50)),
      p99: middle(runs.map((x) => x.p99)),
      rps: middle(runs.map((x) => x.rps)),
      errors: runs.reduce((sum, x) => sum + x.errors, 0),
      cpu: medianCpu(runs),
    });
    const [review, keyed, raw, floor] = [medianFigures(rounds.review), medianFigures(rounds.keyed), medianFigures(rounds.raw), medianFigures(rounds.floor)];
    const reviewOk = [...rounds.review, ...rounds.keyed].reduce((sum, x) => sum + x.ok, 0);
    const cpuRow = (cpu: ReviewCpu) => ({
      'gateway ms': +cpu.gateway.toFixed(2),
      'academic ms': +cpu.academic.toFixed(2),
      'postgres ms': +cpu.postgres.toFixed(2),
      'bench ms': +cpu.bench.toFixed(2),
      'broker ms': +cpu.broker.toFixed(2),
      'redis ms': +cpu.redis.toFixed(2),
      'all ms': +cpuTotal(cpu).toFixed(2),
      'postgres: relay ms': +cpu.relay.toFixed(2),
      'postgres: autovacuum ms': +cpu.autovacuum.toFixed(2),
    });
    console.log(`medians of ${REVIEW_ROUNDS} rounds (CPU a request):`);
    console.table([
      { run: 'service via gateway', 'p50 ms': review.p50, 'p99 ms': review.p99, 'req/s': Math.round(review.rps), errors: review.errors, ...cpuRow(review.cpu) },
      { run: 'service via gateway, Idempotency-Key on each', 'p50 ms': keyed.p50, 'p99 ms': keyed.p99, 'req/s': Math.round(keyed.rps), errors: keyed.errors, ...cpuRow(keyed.cpu) },
      { run: 'baseline: raw SQL, the same read and write', 'p50 ms': raw.p50, 'p99 ms': raw.p99, 'req/s': Math.round(raw.rps), errors: raw.errors, ...cpuRow(raw.cpu) },
      { run: 'floor: the same POST refused before any query (400)', 'p50 ms': floor.p50, 'p99 ms': floor.p99, 'req/s': Math.round(floor.rps), errors: floor.errors, ...cpuRow(floor.cpu) },
    ]);
    console.log('pairs, each of two runs side by side in its round (first named first):');
    console.table(
      rounds.review.map((r, i) => ({
        round: i + 1,
        order: rounds.order[i],
        load: rounds.load[i],
        'review req/s': Math.round(r.rps),
        'raw req/s': Math.round(rounds.raw[i]!.rps),
        'review/raw %': pct(r.rps, rounds.raw[i]!.rps),
        'keyed req/s': Math.round(rounds.keyed[i]!.rps),
        'keyed/review %': pct(rounds.keyed[i]!.rps, r.rps),
        // On saturated cores the rates go as the inverse of all the CPU a request takes on them.
        'raw/review all CPU %': pct(cpuTotal(rounds.raw[i]!.cpu), cpuTotal(r.cpu)),
      })),
    );
    /** The same round's ratio, each round: the median of the pairs, their middle half and their range. */
    const paired = (ratios: number[]) => {
      const sorted = [...ratios].sort((a, b) => a - b);
      const quarter = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;
      return `median ${Math.round(middle(ratios))}% (middle half ${Math.round(quarter(0.25))}–${Math.round(quarter(0.75))}%, all ${Math.round(sorted[0]!)}–${Math.round(sorted.at(-1)!)}%)`;
    };
    const reviewRatios = rounds.review.map((r, i) => (100 * r.rps) / rounds.raw[i]!.rps);
    const keyedRatios = rounds.keyed.map((k, i) => (100 * k.rps) / rounds.review[i]!.rps);
    // Where a review's PostgreSQL time goes: its two statements under EXPLAIN (ANALYZE, BUFFERS) on a pending
    // block, the write rolled back (so its deferred trigger, the queue version's bump at commit, is not in it).
    // The raw loop sends them unnamed, so PostgreSQL plans both on every review (the planning column); the
    // service prepares them (planned once per connection).
    const [sample] = (await db.query<{ id: number }>(`select id from student_blocks where status = 'pending' and id = any($1::int[]) order by id limit 1`, [serviceIds])).rows;
    if (sample) {
      const client = await db.connect();
      try {
        type Explained = { 'QUERY PLAN': [{ 'Planning Time': number; 'Execution Time': number; Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number } }] };
        const plan = async (sql: string, params: unknown[]) => {
          const [explained] = (await client.query<Explained>(`explain (analyze, buffers, format json) ${sql}`, params)).rows[0]!['QUERY PLAN'];
          return { 'planning ms': explained['Planning Time'], 'execution ms': explained['Execution Time'], 'shared hit blocks': explained.Plan['Shared Hit Blocks'], 'read blocks': explained.Plan['Shared Read Blocks'] };
        };
        const read = await plan(targetSql, [sample.id]);
        const target = (await client.query<{ closedAt: string; nextBlockId: number | null }>(targetSql, [sample.id])).rows[0]!;
        await client.query('begin');
        const write = await plan(approveSql, [new Date().toISOString(), 1, sample.id, target.closedAt, target.nextBlockId, randomUUID(), 'block.approved', JSON.stringify({ data: target }), null]);
        await client.query('rollback');
        console.log("EXPLAIN (ANALYZE, BUFFERS) of a review's two statements:");
        console.table([
          { statement: 'the read (block, names, next block, recipients)', ...read },
          { statement: 'the write (row, next block, outbox row), rolled back', ...write },
        ]);
      } finally {
        client.release();
      }
    }
    const [check] = (
      await db.query<{ approved: number; events: number }>(
        `select (select count(*)::int from student_blocks where id = any($1::int[]) and status = 'closed') as approved,
                (select count(*)::int from outbox where type = 'block.approved' and (envelope->'data'->>'studentBlockId')::int = any($1::int[])) as events`,
        [serviceIds],
      )
    ).rows;
    console.log(`service: ${reviewOk} answers 200 measured (with and without keys, 800 more in the warm-up), ${check!.events} block.approved events recorded; ${check!.approved} blocks closed after the last round`);
    console.log(
      `review throughput: ${Math.round(review.rps)} req/s at ${CLIENTS} clients (target ≥ 300/s): ${review.errors > 0 ? `INVALID (${review.errors} errors)` : review.rps >= 300 ? 'MET' : 'NOT MET'}`,
    );
    console.log(`review / raw SQL, paired by round (issue 32: ≥ 80%): ${paired(reviewRatios)}${review.errors + raw.errors > 0 ? ' INVALID (errors)' : ''}`);
    console.log(`keyed / plain review, paired by round (issue 32: ≥ 90%): ${paired(keyedRatios)}${keyed.errors > 0 ? ` INVALID (${keyed.errors} errors)` : ''}`);
    console.log(
      `all CPU a request, medians: review ${cpuTotal(review.cpu).toFixed(2)} ms, raw SQL ${cpuTotal(raw.cpu).toFixed(2)} ms (${pct(cpuTotal(raw.cpu), cpuTotal(review.cpu))}%); the review beyond its floor: gateway +${(review.cpu.gateway - floor.cpu.gateway).toFixed(2)}, academic +${(review.cpu.academic - floor.cpu.academic).toFixed(2)} ms; PostgreSQL ${review.cpu.postgres.toFixed(2)} against the raw loop's ${raw.cpu.postgres.toFixed(2)} ms`,
    );
  }
  console.log(`load average at the end: ${loadAverage()} on ${os.cpus().length} cores`);
  console.log(`\nbench:blocks finished in ${Math.round((performance.now() - started) / 1000)} s`);
} finally {
  await rabbit?.close().catch(() => undefined);
  await db.end();
  await stopAll(children);
  await dropTestDatabase(config.DATABASE_URL);
  if (infra.started.length) await stopInfra('test', infra.started);
}
process.exit(0);
