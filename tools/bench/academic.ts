// `npm run bench:academic`: latency and throughput of GET /api/students/administrative over 50,000
// students and 100,000 registrations; page 1 and a middle page, with and without `search`.
// Starts the test servers (libs/infra), its own database and the academic service in-process on
// port 0, and the gateway in front of it: measured straight and through the gateway.
// Baseline, measured in the same run: GET /healthz of the same process (no database).
import autocannon from 'autocannon';
import { ensureInfra } from '@academy/infra';
import { startService } from '@academy/service';
import { dropTestDatabase, testConfig, tokenFor } from '@academy/testing';
import { academicService } from '../../apps/academic/src/service.ts';
import { SettingsSchema } from '../../apps/academic/src/config.ts';
import { figuresOf, startInProcessGateway } from './support.ts';

const STUDENTS = 50_000;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);
/** One client at a time (latency), then ten at once (throughput, latency under queueing). */
const CONCURRENCY = (process.env.BENCH_CONNECTIONS ?? '1,10').split(',').map(Number);

await ensureInfra('test', (line) => console.log(`[infra] ${line}`));
const config = { ...(await testConfig('bench_academic', SettingsSchema)), DATABASE_POOL_MAX: 20 };
const academic = await startService(academicService, config);
const stops: (() => Promise<void>)[] = [];

try {
  const em = academic.ctx.orm.em.fork();
  const started = performance.now();
  // 50,000 students (created_at in bursts of 5 equal instants, so ties are common), two courses,
  // and two registrations per student: 100,000 rows, 70% of students registered in the latest course.
  await em.execute(`insert into school_courses (name, start_date, end_date, created_at) values ('2025-2026', '2025-09-01', '2026-06-30', now()), ('2026-2027', '2026-09-01', '2027-06-30', now())`);
  await em.execute(`insert into subjects (name, created_at, updated_at) select 'Subject ' || g, now(), now() from generate_series(1, 5) g`);
  await em.execute(`insert into centers (name, created_at, updated_at) select 'Center ' || g, now(), now() from generate_series(1, 3) g`);
  await em.execute(`
    insert into students (name, lastname, email, status, created_at, updated_at)
    select (array['María','José','Lucía','Álvaro','Sofía','Martín','Paula','Hugo','Inés','Mateo'])[1 + g % 10],
           (array['García','Fernández','González','Rodríguez','López','Martínez','Sánchez','Pérez','Gómez','Núñez','Ibáñez','Muñoz'])[1 + (g / 10) % 12]
             || ' ' || (array['Ruiz','Díaz','Moreno','Álvarez','Romero','Jiménez','Navarro','Torres'])[1 + (g / 120) % 8],
           'student' || g || '@example.com',
           case when g % 20 = 0 then 'inactive' else 'active' end,
           timestamptz '2024-01-01' + ((g / 5) * interval '10 minutes'), now()
      from generate_series(1, ${STUDENTS}) g`);
  await em.execute(`
    insert into registrations (student_id, school_course_id, subject_id, center_id, status, created_at, updated_at)
    select s.id, 1, 1 + s.id % 5, 1 + s.id % 3, 'active', now(), now() from students s
    union all
    select s.id, case when s.id % 10 < 7 then 2 else 1 end, 1 + (s.id + 1) % 5, 1 + s.id % 3, case when s.id % 7 = 0 then 'pending' else 'active' end, now(), now() from students s`);
  await em.execute(`vacuum analyze`);
  const [counts] = await em.execute<{ students: number; registrations: number }[]>(`select (select count(*)::int from students) as students, (select count(*)::int from registrations) as registrations`);
  console.log(`\nData: ${counts.students} students, ${counts.registrations} registrations (loaded in ${Math.round(performance.now() - started)} ms)`);

  const token = tokenFor({ role: 'admin' });
  const headers = { authorization: `Bearer ${token}` };
  const totalOf = async (base: string, query: string) => {
    const res = await fetch(`${base}/api/students/administrative?${query}`, { headers });
    if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
    return ((await res.json()) as { meta: { totalItems: number; totalPages: number } }).meta;
  };
  const searchMeta = await totalOf(academic.url, 'search=garcia&limit=20');
  const scenarios = [
    { name: 'page 1', query: 'page=1&limit=20' },
    { name: `middle page (${STUDENTS / 40})`, query: `page=${STUDENTS / 40}&limit=20` },
    { name: 'search "garcia", page 1', query: 'search=garcia&limit=20&page=1' },
    { name: `search "garcia", middle page (${Math.ceil(searchMeta.totalPages / 2)})`, query: `search=garcia&limit=20&page=${Math.ceil(searchMeta.totalPages / 2)}` },
    { name: 'search "nuñez alvarez" (accents), page 1', query: `search=${encodeURIComponent('nuñez alvarez')}&limit=20` },
  ];
  console.log(`"garcia" matches ${searchMeta.totalItems} students`);

  const run = async (url: string, connections: number) => figuresOf(await autocannon({ url, connections, duration: DURATION_S, headers }));
  const report = async (label: string, base: string, connections: number) => {
    console.log(`\n${label}: ${connections} connection(s), ${DURATION_S} s per scenario`);
    const baseline = await run(`${base}/healthz`, connections);
    const rows = [{ scenario: 'baseline GET /healthz', ...baseline, 'vs baseline': '1.00' }];
    for (const scenario of scenarios) {
      const result = await run(`${base}/api/students/administrative?${scenario.query}`, connections);
      rows.push({ scenario: scenario.name, ...result, 'vs baseline': (result.rps / baseline.rps).toFixed(2) });
    }
    console.table(rows.map((row) => ({ scenario: row.scenario, 'p50 ms': row.p50, 'p99 ms': row.p99, 'req/s': Math.round(row.rps), 'non-2xx/errors': row.errors, 'req/s vs baseline': row['vs baseline'] })));
    const worst = Math.max(...rows.slice(1).map((row) => row.p99));
    const failed = rows.reduce((sum, row) => sum + row.errors, 0);
    const verdict = failed > 0 ? `INVALID (${failed} failed requests)` : worst < 50 ? 'MET' : 'NOT MET';
    console.log(`worst p99 of the listing: ${worst} ms (target < 50 ms): ${verdict}`);
  };

  for (const connections of CONCURRENCY) await report('Straight to academic (in-process)', academic.url, connections);

  // Through the gateway, as clients reach it (rate limits out of the way, still counted in Redis).
  const gateway = await startInProcessGateway({ ACADEMIC_URL: academic.url });
  stops.push(gateway.stop);
  for (const connections of CONCURRENCY) await report('Through the gateway', gateway.url, connections);
} finally {
  for (const stop of stops) await stop().catch(() => undefined);
  await academic.stop();
  await dropTestDatabase(config.DATABASE_URL);
}
process.exit(0);
