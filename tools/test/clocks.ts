// `npm run test:clocks`: the test files whose rules depend on the date, run with the whole run's clock
// (Node, PostgreSQL, RabbitMQ; Redis keeps the real one, see libs/infra) set by libfaketime to each instant below, on a throwaway test
// profile (data under .local/clocks/, its own free ports), so that Node and PostgreSQL agree.
// Each instant runs in a child process started under libfaketime: it starts the servers (which
// inherit the fake clock), runs Jest, stops the servers. `-- <instant name>…` runs only those.
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureInfra, freePort, repoRoot, stopInfra } from '@academy/infra';

/** In chronological order: the servers' data directory is kept from one instant to the next, and time only moves forward. */
const INSTANTS: { name: string; at: string }[] = [
  { name: 'new-year', at: '2026-12-31T23:59:59Z' },
  { name: 'monday-0005', at: '2027-01-04T00:05:00Z' },
  { name: 'wednesday-1345', at: '2027-01-06T13:45:00Z' },
  { name: 'saturday-2359', at: '2027-01-09T23:59:00Z' },
  // Europe/Madrid moves from 02:00 CET to 03:00 CEST at 01:00 UTC that night
  { name: 'madrid-dst', at: '2027-03-28T00:59:00Z' },
  { name: 'leap-day', at: '2028-02-29T12:00:00Z' },
];

/**
 * The test files whose rules read the date or the hour (a full `npm test` runs the rest); kept to what
 * fits six instants in the 4 minutes CI gives this step.
 */
const FILES = [
  'apps/incidents/test/checks/scheduled-check.test.ts',
  'apps/incidents/test/time-records/time-records.test.ts',
  'apps/incidents/test/incidents/incidents.test.ts',
  'apps/incidents/src/shared/time.test.ts',
  'apps/academic/test/auth/sessions.test.ts',
  'apps/academic/test/blocks/student-blocks.test.ts',
  'apps/notifications/test/device-tokens.test.ts',
  'apps/notifications/test/push-send.test.ts',
  'apps/hours-bank/test/hours-bank.test.ts',
];
const PROJECTS = [...new Set(FILES.map((file) => file.split('/').slice(0, 2).join('/')))];

const LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';
const LOCAL_DIR = path.join(repoRoot, '.local', 'clocks');
/** Seconds the fake clock starts before the instant, for the servers to start: the tests themselves start at the instant. */
const LEAD_SECONDS = 10;

const { values, positionals } = parseArgs({ allowPositionals: true, options: { instant: { type: 'string' } } });

if (values.instant) await runInstant(values.instant);
else await runAll(positionals);

/** Parent, on the real clock: one child per instant, then a summary. */
async function runAll(only: string[]): Promise<void> {
  if (!existsSync(LIBFAKETIME)) {
    console.error(`test:clocks needs libfaketime (${LIBFAKETIME}): apt-get install faketime`);
    process.exit(1);
  }
  const instants = only.length ? INSTANTS.filter((instant) => only.includes(instant.name)) : INSTANTS;
  const started = Date.now();
  rmSync(LOCAL_DIR, { recursive: true, force: true });
  const ports = { postgres: await freePort(), rabbitmq: await freePort(), rabbitmqDist: await freePort(), redis: await freePort() };
  console.log(`test:clocks: ${instants.length} instants, servers on ${JSON.stringify(ports)}, data in ${path.relative(repoRoot, LOCAL_DIR)}/`);
  console.log(`test files:\n  ${FILES.join('\n  ')}`);
  const results: { name: string; at: string; ok: boolean; summary: string; seconds: number }[] = [];
  for (const instant of instants) {
    const instantStarted = Date.now();
    const offsetSeconds = Math.round((Date.parse(instant.at) - Date.now()) / 1000) - LEAD_SECONDS;
    console.log(`\n=== ${instant.name}: ${instant.at}`);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ACADEMY_LOCAL_DIR: LOCAL_DIR,
      ACADEMY_TEST_PORTS: JSON.stringify(ports),
      LD_PRELOAD: LIBFAKETIME,
      FAKETIME: `${offsetSeconds >= 0 ? '+' : ''}${offsetSeconds}`,
      // timers and timeouts keep real durations; only the wall clock moves
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
      NX_DAEMON: 'false',
    };
    const { code, output } = await run(process.execPath, [process.argv[1], '--instant', instant.at], env);
    const summary = /Tests:\s+(.*total)/.exec(output.replace(/\u001b\[[0-9;]*m/g, ''))?.[1] ?? 'no Jest summary';
    results.push({ ...instant, ok: code === 0, summary, seconds: Math.round((Date.now() - instantStarted) / 1000) });
  }
  rmSync(LOCAL_DIR, { recursive: true, force: true });
  console.log(`\ntest:clocks summary (${Math.round((Date.now() - started) / 1000)} s):`);
  for (const result of results) console.log(`  ${result.ok ? 'PASS' : 'FAIL'}  ${result.name.padEnd(15)} ${result.at}  ${result.summary} (${result.seconds} s)`);
  const failed = results.filter((result) => !result.ok);
  console.log(failed.length ? `test:clocks: FAILED at ${failed.map((result) => result.name).join(', ')}` : 'test:clocks: PASSED at every instant');
  process.exit(failed.length ? 1 : 0);
}

/** Child, under libfaketime: the servers, then Jest once the fake clock reaches the instant. */
async function runInstant(at: string): Promise<void> {
  const starting = Date.now();
  const infra = await ensureInfra('test', (line) => console.log(`[clocks infra] ${line}`));
  console.log(`servers started in ${((Date.now() - starting) / 1000).toFixed(1)} s`);
  let code = 1;
  try {
    const early = Date.parse(at) - Date.now();
    if (early > 0) await new Promise((resolve) => setTimeout(resolve, early));
    console.log(`tests start at ${new Date().toISOString()} (fake clock)`);
    const jest = path.join(repoRoot, 'node_modules/jest/bin/jest.js');
    const args = ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning', jest, '--maxWorkers=2', '--projects', ...PROJECTS.map((project) => path.join(repoRoot, project)), '--runTestsByPath', ...FILES];
    ({ code } = await run(process.execPath, args, process.env));
  } finally {
    await stopInfra('test', infra.started);
  }
  process.exit(code);
}

/** Runs a command, echoing its output, and returns its exit code and output. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const echo = (stream: NodeJS.WriteStream) => (chunk: Buffer) => {
      stream.write(chunk);
      output += chunk.toString('utf8');
    };
    child.stdout.on('data', echo(process.stdout));
    child.stderr.on('data', echo(process.stderr));
    child.on('exit', (exitCode, signal) => resolve({ code: exitCode ?? (signal ? 1 : 0), output }));
  });
}
