// `npm run bench:attendance`: attendance through the gateway, as clients reach it. Academic and the
// gateway run as their own processes on the test PostgreSQL, RabbitMQ and Redis, over a database of
// their own: 1,050 students in subject 1 (35 groups of 30, 40 weekly sessions each, all marked) and
// the first 30 students in subjects 2–8 as well (40 sessions each): 50,400 marks over the last year.
//   1. PUT /api/v2/attendance/events/:id, 30 marks that change every time (alternating P and L), at 1 and 10 clients.
//   2. GET /api/v2/attendance/students/:id over a year (8 subjects × 40 sessions), at 10 clients: right after (1)
//      rewrote those students' marks, and again once the table is vacuumed (the state autovacuum keeps).
//   3. GET /api/v2/attendance/report?subjectId=1 (1,050 students × 40 sessions), at 1 and 10 clients (the admins'
//      report is cached: mostly hits), and at 10 clients with a `below` of its own per request (each computed).
//   4. The whole report as CSV (every subject: about 50,000 session rows), academic's resident memory sampled meanwhile.
// Baselines of the same run: a request the gateway proxies and academic refuses before any query
// (400), and the report's own SQL in a raw `pg` loop; the student's-year p99 is also printed as a ratio
// of the floor's p99 at 10 clients. BENCH_DURATION seconds per run (default 3).
// Each run also reports the CPU time per request of the gateway, academic and the PostgreSQL
// backends (from /proc): latency moves with the machine's other load, CPU per request barely does.
import type { ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import pg from 'pg';
import { ensureInfra, stopInfra } from '@academy/infra';
import { numberedPlaceholders } from '@academy/db';
import { dropTestDatabase, testConfig, tokenFor } from '@academy/testing';
import { SettingsSchema } from '../../apps/academic/src/config.ts';
import { summarySql } from '../../apps/academic/src/attendance/attendance.store.ts';
import { cpuMeter, figureColumns, figuresOf, FLOOR_SCENARIO, gatewayLimitsOff, getPaths, jwtEnv, loadAverage, quantile, rssMb, startReady, stopAll, tenths, verdict, vsFloor } from './support.ts';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 3);
const GROUPS = 35;
const GROUP_SIZE = 30;
const SESSIONS = 40;
const SUBJECTS = 8;

const started = performance.now();
const infra = await ensureInfra('test', (line) => console.log(`[infra] ${line}`), ['postgres', 'rabbitmq', 'redis']);
const config = await testConfig('bench_attendance', SettingsSchema);
const children: ChildProcess[] = [];
const db = new pg.Pool({ connectionString: config.DATABASE_URL, max: 10 });

try {
  const academic = await startReady('academic', {
    ...jwtEnv(config),
    DATABASE_URL: config.DATABASE_URL,
    DATABASE_POOL_MAX: '14',
    RABBITMQ_URL: config.RABBITMQ_URL,
    EVENTS_EXCHANGE: config.EVENTS_EXCHANGE,
    REDIS_URL: config.REDIS_URL,
    ATTENDANCE_CHECK_INTERVAL_MS: '0',
  }, { children });
  const gatewayService = await startReady('gateway', { ...jwtEnv(config), ACADEMIC_URL: academic.url, ...gatewayLimitsOff() }, { children, readyPath: '/healthz' });
  const [academicProcess, gatewayProcess, gateway] = [academic.child, gatewayService.child, gatewayService.url];

  const loadStarted = performance.now();
  const students = GROUPS * GROUP_SIZE;
  await db.query(`insert into school_courses (name, start_date, end_date, created_at) values ('bench', now() - interval '330 days', now() + interval '30 days', now())`);
  await db.query(`insert into centers (name, created_at, updated_at) values ('Centro', now(), now())`);
  await db.query(`insert into employees (name, lastname, email, kind, active, created_at, updated_at) values ('Teacher', 'T', 'teacher@academy.test', 'teacher', true, now(), now())`);
  await db.query(`insert into subjects (name, active, created_at, updated_at) select 'Subject ' || g, true, now(), now() from generate_series(1, $1) g`, [SUBJECTS]);
  await db.query(`insert into students (name, lastname, status, created_at, updated_at) select 'Student', 'S' || lpad(g::text, 5, '0'), 'active', now(), now() from generate_series(1, $1) g`, [students]);
  await db.query(
    `insert into registrations (student_id, school_course_id, subject_id, center_id, employee_id, status, created_at, updated_at)
     select st.id, 1, su.id, 1, 1, 'active', now(), now() from students st cross join subjects su where su.id = 1 or st.id <= $1`,
    [GROUP_SIZE],
  );
  // Classes: subject 1 has a weekly class per group; subjects 2–8 one per week for the first group. Ends before now.
  await db.query(
    `insert into calendar_events (title, subject_id, center_id, employee_id, starts_at, ends_at, created_at, updated_at)
     select 'g' || grp, su, 1, 1, now() - (w * 7 + 1) * interval '1 day', now() - (w * 7 + 1) * interval '1 day' + interval '1 hour', now(), now()
       from generate_series(1, $1) su, generate_series(1, $2) grp, generate_series(0, $3 - 1) w
      where su = 1 or grp = 1`,
    [SUBJECTS, GROUPS, SESSIONS],
  );
  await db.query(
    `insert into event_students (event_id, student_id, assigned_at)
     select e.id, s.id, now() from calendar_events e join students s on (s.id - 1) / $1 + 1 = substr(e.title, 2)::int`,
    [GROUP_SIZE],
  );
  await db.query(`insert into attendance_sheets (event_id, taken_by_user_id, taken_at, updated_by_user_id, updated_at) select id, 1, ends_at, 1, ends_at from calendar_events`);
  await db.query(
    `insert into attendance_marks (event_id, student_id, status, minutes_late, remark, marked_by_user_id, marked_at)
     select es.event_id, es.student_id, case when h < 85 then 'P' when h < 92 then 'L' when h < 96 then 'E' else 'A' end,
            case when h >= 85 and h < 92 then 5 end, null, 1, now()
       from event_students es cross join lateral (select abs(hashint4(es.event_id * 7919 + es.student_id)) % 100 as h) x`,
  );
  await db.query('vacuum analyze');
  const [counts] = (await db.query<{ marks: number; events: number }>(`select (select count(*)::int from attendance_marks) as marks, (select count(*)::int from calendar_events) as events`)).rows;
  console.log(`\nData: ${counts!.events} classes, ${counts!.marks} marks, ${students} students (loaded in ${Math.round(performance.now() - loadStarted)} ms)`);

  const headers = { authorization: `Bearer ${tokenFor({ role: 'admin', sub: '1' }, 900)}` };
  type Cpu = { gateway: number; academic: number; postgres: number };
  /** Runs `work`; the CPU the gateway, academic and the database's backends spent meanwhile, per request (`count`). */
  const measured = cpuMeter({ gateway: gatewayProcess, academic: academicProcess }, db);
  const cpuColumns = (cpu: Cpu) => ({ 'gw cpu ms/req': +cpu.gateway.toFixed(2), 'academic cpu ms/req': +cpu.academic.toFixed(2), 'pg cpu ms/req': +cpu.postgres.toFixed(2) });
  const figures = ({ result, cpu }: { result: autocannon.Result; cpu: Cpu }, expectStatus = 200) => ({ ...figureColumns(figuresOf(result, expectStatus)), ...cpuColumns(cpu) });
  const requestsOf = (result: autocannon.Result) => result.requests.total;
  const get = (path: (i: number) => string, connections: number) => measured(requestsOf, () => getPaths(gateway, path, { connections, duration: DURATION_S, headers }));
  await autocannon({ url: `${gateway}/api/v2/attendance/students/1`, connections: 10, amount: 300, headers });

  const rows: Record<string, unknown>[] = [];
  for (const connections of [1, 10]) rows.push({ scenario: FLOOR_SCENARIO, clients: connections, ...figures(await get(() => '/api/v2/attendance/students/abc', connections), 400) });

  // 1. Saves of 30 marks on the first group's classes of subjects 2–8, each save changing every mark.
  const saveEvents = (await db.query<{ id: number }>(`select id from calendar_events where subject_id > 1 order by id`)).rows.map((row) => row.id);
  const group = Array.from({ length: GROUP_SIZE }, (_, i) => i + 1);
  for (const connections of [1, 10]) {
    let n = 0;
    const result = await measured(requestsOf, () => autocannon({
      url: gateway,
      connections,
      duration: DURATION_S,
      requests: [
        {
          method: 'PUT',
          setupRequest: (request) => {
            const i = n++;
            const status = Math.floor(i / saveEvents.length) % 2 === 0 ? 'L' : 'P';
            return {
              ...request,
              path: `/api/v2/attendance/events/${saveEvents[i % saveEvents.length]}`,
              headers: { ...headers, 'content-type': 'application/json' },
              body: JSON.stringify({ marks: group.map((studentId) => ({ studentId, status, ...(status === 'L' ? { minutesLate: 3 } : {}) })) }),
            };
          },
        },
      ],
    }));
    rows.push({ scenario: 'PUT a sheet of 30 marks (all changed)', clients: connections, ...figures(result) });
  }
  // 2. A student's year: 8 subjects × 40 sessions, of the 30 students whose marks (1) just rewrote, twice:
  //    right after that burst (their pages hold dead rows and are not all-visible, so the covering index
  //    needs the table), and once vacuumed, as autovacuum leaves the table within a minute of such a burst.
  const studentYear = (i: number) => `/api/v2/attendance/students/${1 + (i % GROUP_SIZE)}`;
  rows.push({ scenario: "GET a student's year, right after the saves", clients: 10, ...figures(await get(studentYear, 10)) });
  await db.query('vacuum (analyze) attendance_marks');
  rows.push({ scenario: "GET a student's year (8 subjects × 40 sessions)", clients: 10, ...figures(await get(studentYear, 10)) });
  // 3. The report of subject 1.
  for (const connections of [1, 10]) rows.push({ scenario: `GET report subject 1 (${students} students × ${SESSIONS} sessions)`, clients: connections, ...figures(await get(() => '/api/v2/attendance/report?subjectId=1', connections)) });
  // The same report with the cache bypassed: each request has its own `below` (100, 99.99, …), hence its own key;
  // nearly every student is under 100 %, so each is the whole report, computed.
  rows.push({ scenario: `GET report subject 1, uncached (below=100, 99.99, …)`, clients: 10, ...figures(await get((i) => `/api/v2/attendance/report?subjectId=1&below=${((10_000 - (i % 5_000)) / 100).toFixed(2)}`, 10)) });

  // Baseline of 3: the report's SQL straight from pg, one client.
  const reportSql = numberedPlaceholders(summarySql(' and x.subject_id = ?', '', 'totals'));
  const from = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10);
  const to = new Date().toISOString().slice(0, 10);
  const latencies: number[] = [];
  const rawStarted = performance.now();
  const { cpu: rawCpu } = await measured(() => latencies.length, async () => {
    while (performance.now() - rawStarted < DURATION_S * 1000) {
      const t0 = performance.now();
      await db.query(reportSql, [from, config.ACADEMY_TIME_ZONE, to, config.ACADEMY_TIME_ZONE, 1]);
      latencies.push(performance.now() - t0);
    }
  });
  latencies.sort((a, b) => a - b);
  const at = (q: number) => tenths(quantile(latencies, q));
  rows.push({ scenario: "baseline: the report's SQL, raw pg", clients: 1, 'p50 ms': at(0.5), 'p99 ms': at(0.99), 'req/s': Math.round(latencies.length / DURATION_S), errors: 0, ...cpuColumns(rawCpu) });
  console.log(`\nThrough the gateway, ${DURATION_S} s per run`);
  console.table(rows);

  // 4. The CSV of every subject, read slowly enough that the stream's back-pressure matters; academic's RSS sampled meanwhile.
  const rssBefore = rssMb(academicProcess.pid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(academicProcess.pid))), 20);
  const csvStarted = performance.now();
  const answer = await fetch(`${gateway}/api/v2/attendance/report`, { headers: { ...headers, accept: 'text/csv' } });
  let bytes = 0;
  let lines = 0;
  for await (const chunk of answer.body!) {
    bytes += chunk.length;
    for (const byte of chunk as Uint8Array) if (byte === 10) lines++;
  }
  clearInterval(sampler);
  const csvMs = Math.round(performance.now() - csvStarted);
  console.log(
    `\nCSV: HTTP ${answer.status}, ${lines - 1} rows (${Math.round(bytes / 1024)} KiB) in ${csvMs} ms; academic RSS ${rssBefore.toFixed(0)} MB before, peak ${rssPeak.toFixed(0)} MB during (+${(rssPeak - rssBefore).toFixed(0)} MB)`,
  );
  const save1 = rows.find((row) => String(row.scenario).startsWith('PUT') && row.clients === 1)!;
  const student = rows.find((row) => String(row.scenario).startsWith("GET a student's year (8"))!;
  const studentAfterSaves = rows.find((row) => String(row.scenario).startsWith("GET a student's year, right after"))!;
  const report10 = rows.find((row) => String(row.scenario).startsWith('GET report') && row.clients === 10)!;
  console.log(`save of 30 marks p50 at 1 client: ${save1['p50 ms']} ms (target < 15 ms): ${verdict(save1['p50 ms'] as number, 15, save1.errors as number)}`);
  console.log(`student's year p99 at 10 clients: ${student['p99 ms']} ms (target < 20 ms): ${verdict(student['p99 ms'] as number, 20, student.errors as number)}`);
  console.log(`student's year p99 at 10 clients right after 30 students' marks were rewritten, before a vacuum: ${studentAfterSaves['p99 ms']} ms`);
  const floor10 = rows.find((row) => row.scenario === FLOOR_SCENARIO && row.clients === 10)!;
  console.log(`student's year p99 against the floor's p99 at 10 clients: ${student['p99 ms']} / ${floor10['p99 ms']} ms = ${vsFloor(student['p99 ms'] as number, floor10['p99 ms'] as number).toFixed(2)}×`);
  console.log(`report p99 at 10 clients: ${report10['p99 ms']} ms (target < 150 ms): ${verdict(report10['p99 ms'] as number, 150, report10.errors as number)}`);
  const uncached10 = rows.find((row) => String(row.scenario).startsWith('GET report subject 1, uncached'))!;
  console.log(`report p99 at 10 clients with the cache bypassed: ${uncached10['p99 ms']} ms (${uncached10['req/s']} req/s)`);
  console.log(`load average at the end: ${loadAverage()}`);
  console.log(`\nbench:attendance finished in ${Math.round((performance.now() - started) / 1000)} s`);
} finally {
  await db.end();
  await stopAll(children);
  await dropTestDatabase(config.DATABASE_URL);
  if (infra.started.length) await stopInfra('test', infra.started);
}
process.exit(0);
