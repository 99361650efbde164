// `npm run bench:console`: the first load of the console's Login and Today pages in Debian's Chromium
// (a fresh browser context each run: nothing cached), through an in-process gateway serving the
// production build, with academic behind it (login and the session's renewal). Measures the
// JavaScript transferred (bytes on the wire, gzip as the gateway sends it) and the time to the
// first contentful paint and to the page's heading (performance API), p50 over BENCH_RUNS loads.
// Target (issue 33): at most 150 KB of JavaScript for the two routes, p50 paint under 1 s.
// Issue 34: the review queue's time to interactive with 500 pending blocks (100 students × 5
// subjects, one pending block each), as an administrator opening /admin/review cold: when the 500
// blocks are listed (their checkboxes in the page), and when a click on the first one has been
// answered (the selection's heading says 1), and how many of the 500 rows that click rendered again
// (counted through React's DevTools hook, apps/console/e2e/renders.ts; 1 is the clicked row alone).
import { chromium, type Page } from '@playwright/test';
import { hashPassword } from '@academy/auth';
import { ensureInfra, stopInfra } from '@academy/infra';
import { startService } from '@academy/service';
import { dropTestDatabase, testConfig } from '@academy/testing';
import { academicService } from '../../apps/academic/src/service.ts';
import { SettingsSchema } from '../../apps/academic/src/config.ts';
import { User } from '../../apps/academic/src/shared/entities/user.entity.ts';
import { buildConsole } from '../dev/console.ts';
import { loadAverage, median, startInProcessGateway } from './support.ts';
import { countRowRenders, resetRowRenders, rowRenders } from '../../apps/console/e2e/renders.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const KB = 1024;

buildConsole();
const infra = await ensureInfra('test', (line) => console.log(`[infra] ${line}`), ['postgres', 'redis']);
const academic = await startService(academicService, { ...(await testConfig('bench_console', SettingsSchema)), LOG_LEVEL: 'silent' });
const gateway = await startInProcessGateway({ ACADEMIC_URL: academic.url });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

interface Load {
  jsBytes: number;
  fcpMs: number;
  headingMs: number;
}

/** One cold load of `path`: script bytes on the wire (CDP's encodedDataLength), FCP, and when the h1 `heading` was first seen. */
async function load(path: string, heading: string, before?: (page: Page) => Promise<void>): Promise<Load> {
  const context = await browser.newContext({ locale: 'es-ES', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  if (before) await before(page);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const scripts = new Set<string>();
  let jsBytes = 0;
  cdp.on('Network.responseReceived', (event) => {
    if (event.type === 'Script') scripts.add(event.requestId);
  });
  cdp.on('Network.loadingFinished', (event) => {
    if (scripts.has(event.requestId)) jsBytes += event.encodedDataLength;
  });
  await page.goto(`${gateway.url}${path}`);
  // A function, not a string: the console's CSP forbids eval. (tools/ is typed without the DOM.)
  type Dom = { document: { querySelector(selector: string): { textContent: string | null } | null } };
  await page.waitForFunction((text) => (globalThis as unknown as Dom).document.querySelector('h1')?.textContent === text, heading, { polling: 'raf' });
  const headingMs = await page.evaluate(() => performance.now());
  await page.waitForLoadState('networkidle');
  const fcpMs = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN);
  await context.close();
  return { jsBytes, fcpMs, headingMs };
}

interface QueueLoad {
  jsBytes: number;
  listedMs: number;
  interactiveMs: number;
  rowsRendered: number;
  /** CPU time of the page's main thread (CDP's ThreadTime): to the 500 listed, and for the click alone. */
  listedCpuMs: number;
  clickCpuMs: number;
}

/** One cold load of the review queue: the 500 blocks listed, then the first one selected by a click and the page's answer to it. */
async function queueLoad(before: (page: Page) => Promise<void>): Promise<QueueLoad> {
  const context = await browser.newContext({ locale: 'es-ES', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await before(page);
  await countRowRenders(page);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Performance.enable');
  const threadMs = async () => 1000 * ((await cdp.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'ThreadTime')?.value ?? Number.NaN);
  const scripts = new Set<string>();
  let jsBytes = 0;
  cdp.on('Network.responseReceived', (event) => {
    if (event.type === 'Script') scripts.add(event.requestId);
  });
  cdp.on('Network.loadingFinished', (event) => {
    if (scripts.has(event.requestId)) jsBytes += event.encodedDataLength;
  });
  await page.goto(`${gateway.url}/admin/review`);
  type Dom = { document: { querySelectorAll(selector: string): { length: number } } };
  await page.waitForFunction(() => (globalThis as unknown as Dom).document.querySelectorAll('input[type="checkbox"][aria-label^="Seleccionar: "]').length === 500, undefined, { polling: 'raf', timeout: 60_000 });
  const listedMs = await page.evaluate(() => performance.now());
  const listedCpuMs = await threadMs();
  await resetRowRenders(page);
  await page.getByRole('checkbox', { name: /^Seleccionar: / }).first().click();
  await page.getByRole('heading', { name: '1 seleccionados' }).waitFor();
  const interactiveMs = await page.evaluate(() => performance.now());
  const clickCpuMs = (await threadMs()) - listedCpuMs;
  const { rendered } = await rowRenders(page);
  await context.close();
  return { jsBytes, listedMs, interactiveMs, rowsRendered: rendered, listedCpuMs, clickCpuMs };
}

/** `students` students registered in `subjects` subjects of one course, each with the first of three blocks pending review. */
async function seedPendingBlocks(em: typeof academic.ctx.orm.em, students: number, subjects: number): Promise<void> {
  for (const statement of [
    `insert into school_courses (name, start_date, end_date, created_at) values ('2026-2027', '2026-09-01', '2027-06-30', now())`,
    `insert into centers (name, created_at, updated_at) values ('Centro', now(), now())`,
    `insert into employees (name, lastname, email, kind, active, created_at, updated_at) select 'Teacher', 'T' || g, 'teacher' || g || '@academy.test', 'teacher', true, now(), now() from generate_series(1, ${subjects}) g`,
    `insert into subjects (name, active, created_at, updated_at) select 'Subject ' || g, true, now(), now() from generate_series(1, ${subjects}) g`,
    `insert into blocks (subject_id, name, position) select s, 'Block ' || s || '.' || p, p from generate_series(1, ${subjects}) s, generate_series(1, 3) p`,
    `insert into students (name, lastname, email, status, created_at, updated_at) select 'Student', 'S' || g, null, 'active', now(), now() from generate_series(1, ${students}) g`,
    `insert into registrations (student_id, school_course_id, subject_id, center_id, employee_id, status, created_at, updated_at)
       select st.id, (select id from school_courses limit 1), su.id, (select id from centers limit 1), su.id, 'active', now(), now() from students st cross join subjects su`,
    `insert into student_blocks (student_id, block_id, status, grade, employee_id, closed_at, created_at, updated_at)
       select r.student_id, b.id, case when b.position = 1 then 'pending' else 'blocked' end, case when b.position = 1 then 7.5 end,
              case when b.position = 1 then r.employee_id end, case when b.position = 1 then now() - (r.student_id * 5 + r.subject_id) * interval '1 minute' end, now(), now()
         from registrations r join blocks b on b.subject_id = r.subject_id`,
  ])
    await em.execute(statement);
  const [count] = await em.execute<{ n: number }[]>(`select count(*)::int as n from student_blocks where status = 'pending'`);
  if (count!.n !== students * subjects) throw new Error(`expected ${students * subjects} pending blocks, found ${count!.n}`);
}

try {
  const em = academic.ctx.orm.em.fork();
  em.create(User, { email: 'bench@academy.test', passwordHash: await hashPassword('bench-pass'), role: 'user' });
  await em.flush();
  // Today is loaded as a returning user: the session cookie set by a login, the page renews it.
  const signedIn = async (page: Page) => {
    const answer = await page.request.post(`${gateway.url}/api/console/session`, { data: { email: 'bench@academy.test', password: 'bench-pass' } });
    if (!answer.ok()) throw new Error(`bench login: ${answer.status()}`);
  };
  const rows: Record<string, string | number>[] = [];
  for (const [name, path, heading, before] of [
    ['Login', '/login', 'Iniciar sesión', undefined],
    ['Today', '/', 'Hoy', signedIn],
  ] as const) {
    await load(path, heading, before); // warm the server side
    const loads: Load[] = [];
    for (let i = 0; i < RUNS; i++) loads.push(await load(path, heading, before));
    rows.push({
      route: name,
      'JS KB (gzip, on the wire)': Math.round((median(loads.map((l) => l.jsBytes)) / KB) * 10) / 10,
      'p50 first contentful paint ms': Math.round(median(loads.map((l) => l.fcpMs))),
      'p50 heading shown ms': Math.round(median(loads.map((l) => l.headingMs))),
    });
  }
  console.log(`\nconsole first loads, ${RUNS} cold loads each, Chromium ${browser.version()}, load average ${loadAverage()}`);
  console.table(rows);
  const worstJs = Math.max(...rows.map((r) => Number(r['JS KB (gzip, on the wire)'])));
  const worstPaint = Math.max(...rows.map((r) => Number(r['p50 heading shown ms'])));
  console.log(`JavaScript for Login + Today (one bundle serves both): ${worstJs} KB (target ≤ 150): ${worstJs <= 150 ? 'MET' : 'NOT MET'}`);
  console.log(`p50 paint of the heading: ${worstPaint} ms (target < 1000): ${worstPaint < 1000 ? 'MET' : 'NOT MET'}`);

  // The review queue with 500 pending blocks, as an administrator.
  await seedPendingBlocks(em, 100, 5);
  em.create(User, { email: 'bench-admin@academy.test', passwordHash: await hashPassword('bench-pass'), role: 'admin' });
  await em.flush();
  const asAdmin = async (page: Page) => {
    const answer = await page.request.post(`${gateway.url}/api/console/session`, { data: { email: 'bench-admin@academy.test', password: 'bench-pass' } });
    if (!answer.ok()) throw new Error(`bench admin login: ${answer.status()}`);
  };
  await queueLoad(asAdmin); // warm the server side
  const queue: QueueLoad[] = [];
  for (let i = 0; i < RUNS; i++) queue.push(await queueLoad(asAdmin));
  console.log(`\nreview queue (/admin/review) with 500 pending blocks, ${RUNS} cold loads as an administrator`);
  console.table([
    {
      'JS KB (gzip, on the wire)': Math.round((median(queue.map((q) => q.jsBytes)) / KB) * 10) / 10,
      'p50 500 blocks listed ms': Math.round(median(queue.map((q) => q.listedMs))),
      'p50 first click answered ms': Math.round(median(queue.map((q) => q.interactiveMs))),
      'max first click answered ms': Math.round(Math.max(...queue.map((q) => q.interactiveMs))),
      'p50 click answered after listing ms': Math.round(median(queue.map((q) => q.interactiveMs - q.listedMs))),
      'p50 main-thread CPU to list ms': Math.round(median(queue.map((q) => q.listedCpuMs))),
      'p50 main-thread CPU of the click ms': Math.round(median(queue.map((q) => q.clickCpuMs))),
      'rows rendered by the click (max)': Math.max(...queue.map((q) => q.rowsRendered)),
    },
  ]);
} finally {
  await browser.close();
  await gateway.stop();
  await academic.stop();
  await dropTestDatabase(academic.ctx.config.DATABASE_URL);
  if (infra.started.length) await stopInfra('test', infra.started);
}
