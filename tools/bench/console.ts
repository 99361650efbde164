// `npm run bench:console`: the first load of the console's Login and Today pages in Debian's Chromium
// (a fresh browser context each run: nothing cached), through an in-process gateway serving the
// production build, with academic behind it (login and the session's renewal). Measures the
// JavaScript transferred (bytes on the wire, gzip as the gateway sends it) and the time to the
// first contentful paint and to the page's heading (performance API), p50 over BENCH_RUNS loads.
// Target (issue 33): at most 150 KB of JavaScript for the two routes, p50 paint under 1 s.
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
} finally {
  await browser.close();
  await gateway.stop();
  await academic.stop();
  await dropTestDatabase(academic.ctx.config.DATABASE_URL);
  if (infra.started.length) await stopInfra('test', infra.started);
}
