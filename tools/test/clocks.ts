// `npm run test:clocks`: the test files whose rules depend on the date, run with the whole run's clock (Node,
// PostgreSQL, RabbitMQ; Redis keeps the real one, see libs/infra) set by libfaketime to each instant below, on throwaway
// test profiles, so that Node and PostgreSQL agree.
//
// The instants are dealt to `--lanes` lanes (2: this machine's cores) that run at once. A lane is a child process with
// servers of its own (data under .local/clocks/lane-<n>/, free ports), started once: libfaketime reads the clock's
// offset from the lane's timestamp file, so for each of its instants (in chronological order: time only moves forward)
// the lane writes the offset, waits for every process to read it, and runs Jest on that instant's files (the groups
// whose rules its boundary exercises, see INSTANTS; `--all`: every file at every instant) in a random order (the seed
// printed; `--workers` workers). Each instant's output goes to .local/clocks/<instant>.log and is printed
// when it fails. `-- <instant name>…` runs only those; `--seed <n>` replays an order.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureInfra, freePort, repoRoot, stopInfra } from '@academy/infra';
import { CALENDAR, CLOCK_FILES, DAY, SCHEDULING } from './clock-files.ts';

interface Instant {
  name: string;
  at: string;
  /** The test files run at this instant: the groups whose rules this instant's boundary exercises (below). */
  files: string[];
}

/**
 * In chronological order. Each instant runs the groups its boundary exercises, and every file runs at two instants
 * or more (`--all`: every file at every instant, as before 28 Nov: 84 file runs instead of 51).
 */
const INSTANTS: Instant[] = [
  // the year, the month and the day end (in Madrid it is already 00:59 on 1 January)
  { name: 'new-year', at: '2026-12-31T23:59:59Z', files: [...DAY, ...CALENDAR] },
  // the week starts (01:05 on Monday in Madrid): yesterday was Sunday, the UTC and the academy's day both just began
  { name: 'monday-0005', at: '2027-01-04T00:05:00Z', files: [...SCHEDULING, ...DAY] },
  // a weekday during classes (14:45 in Madrid)
  { name: 'wednesday-1345', at: '2027-01-06T13:45:00Z', files: SCHEDULING },
  // the weekend; UTC's Saturday is already Sunday 00:59 in Madrid
  { name: 'saturday-2359', at: '2027-01-09T23:59:00Z', files: [...SCHEDULING, ...DAY] },
  // Europe/Madrid moves from 02:00 CET to 03:00 CEST at 01:00 UTC that night: a 23-hour day, in a month's report too
  { name: 'madrid-dst', at: '2027-03-28T00:59:00Z', files: [...SCHEDULING, ...DAY, 'apps/incidents/test/time-records/report-pdf.test.ts'] },
  // 29 February
  { name: 'leap-day', at: '2028-02-29T12:00:00Z', files: [...DAY, ...CALENDAR] },
];

const FILES = CLOCK_FILES;

const LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';
const LOCAL_DIR = path.join(repoRoot, '.local', 'clocks');
/** Seconds libfaketime keeps the offset it read from the timestamp file before reading it again. */
const CACHE_SECONDS = 1;
/** Seconds from starting Jest to its first test: the clock is set that far before the instant. */
const JEST_BOOT_SECONDS = 2;
/** Jest's last line (with --forceExit): the run is over, whatever its process still waits for. */
const JEST_DONE = /Force exiting Jest|Ran all test suites/;
/**
 * How long a Jest that printed its last line may take to exit: under libfaketime its main process has
 * been seen waiting forever on a futex after force-exiting a worker (every test passed), holding up CI.
 */
const EXIT_GRACE_MS = 20_000;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    lane: { type: 'string' },
    seed: { type: 'string' },
    lanes: { type: 'string', default: '2' },
    workers: { type: 'string', default: '2' },
    all: { type: 'boolean', default: false },
  },
});

interface Result extends Instant {
  ok: boolean;
  seed: string;
  summary: string;
  seconds: number;
  log: string;
}

if (values.lane) await runLane(JSON.parse(values.lane) as Instant[]);
else await runAll(positionals);

/** Parent, on the real clock: the instants dealt to the lanes, one child each, then a summary. */
async function runAll(only: string[]): Promise<void> {
  if (!existsSync(LIBFAKETIME)) {
    console.error(`test:clocks needs libfaketime (${LIBFAKETIME}): apt-get install faketime`);
    process.exit(1);
  }
  const unknown = only.filter((name) => !INSTANTS.some((instant) => instant.name === name));
  if (unknown.length) {
    console.error(`test:clocks: no instant named ${unknown.join(', ')} (known: ${INSTANTS.map((instant) => instant.name).join(', ')})`);
    process.exit(2);
  }
  const instants = (only.length ? INSTANTS.filter((instant) => only.includes(instant.name)) : INSTANTS).map((instant) =>
    values.all ? { ...instant, files: FILES } : instant,
  );
  const laneCount = Math.min(Math.max(1, Number(values.lanes)), instants.length);
  const lanes = Array.from({ length: laneCount }, (_, lane) => instants.filter((_, index) => index % laneCount === lane));
  const started = Date.now();
  rmSync(LOCAL_DIR, { recursive: true, force: true });
  mkdirSync(LOCAL_DIR, { recursive: true });
  console.log(`test:clocks: ${instants.length} instants in ${laneCount} lanes at once, ${values.workers} Jest worker(s) each; logs in ${path.relative(repoRoot, LOCAL_DIR)}/`);
  const runs = instants.reduce((sum, instant) => sum + instant.files.length, 0);
  console.log(`${runs} file runs${values.all ? ' (--all: every file at every instant)' : ''}:`);
  for (const instant of instants) console.log(`  ${instant.name}: ${instant.files.map((file) => path.basename(file, '.test.ts')).join(', ')}`);
  const results = (await Promise.all(lanes.map((lane, index) => startLane(index, lane)))).flat();
  results.sort((a, b) => instants.findIndex((i) => i.name === a.name) - instants.findIndex((i) => i.name === b.name));
  const missing = instants.filter((instant) => !results.some((result) => result.name === instant.name));
  const failed = [...results.filter((result) => !result.ok).map((result) => result.name), ...missing.map((instant) => instant.name)];
  for (const result of results.filter((r) => !r.ok)) {
    console.log(`\n=== ${result.name} (${result.at}) failed; from ${path.relative(repoRoot, result.log)}:\n${failureReport(result.log)}`);
  }
  console.log(`\ntest:clocks summary (${Math.round((Date.now() - started) / 1000)} s in total):`);
  for (const result of results) {
    console.log(`  ${result.ok ? 'PASS' : 'FAIL'}  ${result.name.padEnd(15)} ${result.at}  seed ${result.seed.padEnd(10)}  ${result.summary} (${result.seconds} s)`);
  }
  for (const instant of missing) console.log(`  FAIL  ${instant.name.padEnd(15)} ${instant.at}  not run: its lane stopped (see ${path.relative(repoRoot, LOCAL_DIR)}/lane-*.log)`);
  console.log(failed.length ? `test:clocks: FAILED at ${failed.join(', ')} (replay one: npm run test:clocks -- <instant> --seed <seed>)` : 'test:clocks: PASSED at every instant');
  if (!failed.length) rmSync(LOCAL_DIR, { recursive: true, force: true });
  process.exit(failed.length ? 1 : 0);
}

/** A lane's child: its own profile and ports; it reports each instant's result as a `RESULT {…}` line. */
async function startLane(index: number, instants: Instant[]): Promise<Result[]> {
  const ports = { postgres: await freePort(), rabbitmq: await freePort(), rabbitmqDist: await freePort(), redis: await freePort() };
  console.log(`[lane ${index + 1}] ${instants.map((instant) => instant.name).join(', ')}; servers on ${JSON.stringify(ports)}`);
  const env: NodeJS.ProcessEnv = { ...process.env, ACADEMY_LOCAL_DIR: path.join(LOCAL_DIR, `lane-${index + 1}`), ACADEMY_TEST_PORTS: JSON.stringify(ports), NX_DAEMON: 'false' };
  const args = [process.argv[1]!, '--lane', JSON.stringify(instants), '--workers', values.workers!, ...(values.seed ? ['--seed', values.seed] : [])];
  const { output } = await run(process.execPath, args, env, path.join(LOCAL_DIR, `lane-${index + 1}.log`), (line) => {
    if (line.startsWith('RESULT ')) {
      const result = JSON.parse(line.slice('RESULT '.length)) as Result;
      console.log(`[lane ${index + 1}] ${result.ok ? 'PASS' : 'FAIL'} ${result.name} (seed ${result.seed}): ${result.summary} (${result.seconds} s)`);
    }
  });
  return output.split('\n').flatMap((line) => (line.startsWith('RESULT ') ? [JSON.parse(line.slice('RESULT '.length)) as Result] : []));
}

/**
 * A lane, on the real clock itself: its servers and each Jest run get libfaketime with the lane's timestamp file
 * (FAKETIME itself unset: it would take precedence over the file), so one write moves every clock of the lane.
 */
async function runLane(instants: Instant[]): Promise<void> {
  const timestampFile = path.join(process.env.ACADEMY_LOCAL_DIR!, 'faketime.rc');
  mkdirSync(path.dirname(timestampFile), { recursive: true });
  const setClock = async (at: number) => {
    const offset = Math.round((at - Date.now()) / 1000);
    writeFileSync(timestampFile, `${offset >= 0 ? '+' : ''}${offset}\n`);
    // every process of the lane reads it again within CACHE_SECONDS
    await new Promise((resolve) => setTimeout(resolve, CACHE_SECONDS * 1000 + 200));
  };
  writeFileSync(timestampFile, '+0\n');
  delete process.env.FAKETIME;
  Object.assign(process.env, {
    LD_PRELOAD: LIBFAKETIME,
    FAKETIME_TIMESTAMP_FILE: timestampFile,
    FAKETIME_CACHE_DURATION: String(CACHE_SECONDS),
    // timers and timeouts keep real durations; only the wall clock moves
    FAKETIME_DONT_FAKE_MONOTONIC: '1',
  });
  const starting = Date.now();
  const infra = await ensureInfra('test', (line) => console.log(`[clocks infra] ${line}`));
  console.log(`servers started in ${((Date.now() - starting) / 1000).toFixed(1)} s`);
  try {
    for (const instant of instants) {
      const started = Date.now();
      const seed = values.seed ?? String(Math.floor(Math.random() * 2 ** 31));
      await setClock(Date.parse(instant.at) - JEST_BOOT_SECONDS * 1000);
      const log = path.join(LOCAL_DIR, `${instant.name}.log`);
      console.log(`${instant.name}: clock set to ${instant.at} - ${JEST_BOOT_SECONDS} s, seed ${seed}, output in ${log}`);
      const { code, output, stoppedAfterSummary } = await run(process.execPath, jestArgs(instant.files, seed), process.env, log, undefined, JEST_DONE);
      const plain = stripColours(output);
      const suites = /Test Suites:\s+(.*total)/.exec(plain)?.[1];
      const tests = /Tests:\s+(.*total)/.exec(plain)?.[1];
      const summary = suites ? `files: ${suites}; tests: ${tests ?? 'none'}` : 'no Jest summary';
      // a Jest stopped after its summary passed when that summary names no failure
      const passed = stoppedAfterSummary ? Boolean(suites && tests) && !/failed/.test(`${suites} ${tests}`) : code === 0;
      if (stoppedAfterSummary) console.log(`${instant.name}: Jest printed its summary and did not exit within ${EXIT_GRACE_MS / 1000} s: stopped`);
      const result: Result = { ...instant, ok: passed, seed, summary, seconds: Math.round((Date.now() - started) / 1000), log };
      console.log(`RESULT ${JSON.stringify(result)}`);
    }
  } finally {
    await stopInfra('test', infra.started);
  }
  process.exit(0);
}

function jestArgs(files: string[], seed: string): string[] {
  const projects = [...new Set(files.map((file) => file.split('/').slice(0, 2).join('/')))];
  return [
    '--experimental-vm-modules',
    '--no-warnings=ExperimentalWarning',
    path.join(repoRoot, 'node_modules/jest/bin/jest.js'),
    `--maxWorkers=${values.workers}`,
    // the projects' `randomize` and `showSeed` are root options: with --projects they are given here
    '--randomize',
    `--seed=${seed}`,
    '--showSeed',
    // once every suite has answered, exit: seen once here, a run whose 309 tests had all passed and whose worker had
    // been force-exited kept its main process waiting for minutes (under libfaketime) and held up CI
    '--forceExit',
    '--projects',
    ...projects.map((project) => path.join(repoRoot, project)),
    '--runTestsByPath',
    ...files,
  ];
}

function stripColours(text: string): string {
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

/** What failed, from an instant's log: from the first failing file on, without the passing files' lines. */
function failureReport(log: string): string {
  const lines = stripColours(readText(log)).split('\n');
  const first = lines.findIndex((line) => line.startsWith('FAIL ') || line.includes('●'));
  return (first === -1 ? lines.slice(-40) : lines.slice(first)).filter((line) => !line.startsWith('PASS ')).join('\n');
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}


/**
 * Runs a command, its output to `log`; `onLine` sees each line of its stdout. Returns its exit code and output.
 * With `doneWhen`: once the output matches it, the command gets `EXIT_GRACE_MS` to exit, then is killed (`stoppedAfterSummary`).
 */
function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  log: string,
  onLine?: (line: string) => void,
  doneWhen?: RegExp,
): Promise<{ code: number; output: string; stoppedAfterSummary: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const file = createWriteStream(log);
    let output = '';
    let pending = '';
    let stoppedAfterSummary = false;
    let grace: NodeJS.Timeout | undefined;
    const watchForEnd = () => {
      if (!doneWhen || grace || !doneWhen.test(output)) return;
      grace = setTimeout(() => {
        stoppedAfterSummary = true;
        child.kill('SIGKILL');
      }, EXIT_GRACE_MS);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      file.write(chunk);
      output += chunk.toString('utf8');
      watchForEnd();
      if (!onLine) return;
      const lines = (pending + chunk.toString('utf8')).split('\n');
      pending = lines.pop()!;
      lines.forEach(onLine);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      file.write(chunk);
      output += chunk.toString('utf8');
      watchForEnd();
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(grace);
      file.end(() => resolve({ code: exitCode ?? (signal ? 1 : 0), output, stoppedAfterSummary }));
    });
  });
}
