// `npm test`: starts (or reuses) the test servers once, runs every project's tests through Nx,
// then stops the servers it started. Extra arguments go to `nx run-many` (e.g. `-p hours-bank`).
// `--without-clock-files`: without the files `npm run test:clocks` runs at its instants (tools/test/clock-files.ts),
// for CI, which runs test:clocks too: each of them still runs there, at two instants or more.
import { spawn } from 'node:child_process';
import pg from 'pg';
import { ensureInfra, stopInfra, urls } from '@academy/infra';
import { CLOCK_FILES } from './clock-files.ts';

/** Drops test databases left by interrupted runs; only when this run owns the test server. */
async function dropStaleTestDatabases(): Promise<void> {
  const client = new pg.Client({ connectionString: `${urls('test').postgres}/postgres` });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>("select datname from pg_database where datname like 't\\_%' or datname like 'bench\\_%'");
    for (const { datname } of rows) await client.query(`drop database if exists "${datname}" with (force)`);
  } finally {
    await client.end();
  }
}

const started = Date.now();
const totals = { suites: 0, passed: 0, failed: 0, skipped: 0 };
/** Jest's "FAIL <file>" and "● <test>" lines, repeated at the end: CI shows only the tail of a long log. */
const failures: string[] = [];
/** everything Nx printed, read whole at the end (a chunk may end mid-line) */
const output: Buffer[] = [];

/** Adds up Jest's per-project "Tests:" lines for one summary at the end, and keeps what failed. */
function countTests(text: string): void {
  // strips the colour codes Jest prints
  for (const line of text.replace(/\u001b\[[0-9;]*m/g, '').split('\n')) {
    // Jest's failed files and tests, and Nx's failed tasks ("- academic:test"): a crash outside Jest prints no FAIL
    if (/^(FAIL\s|● (?!Console)|- [\w-]+:test\b)/.test(line.trim())) {
      if (failures.length < 60 && !failures.includes(line.trim())) failures.push(line.trim());
    }
    const match = /^Tests:\s+(.*)\b(\d+) total/.exec(line.trim());
    if (!match) continue;
    totals.suites += 1;
    for (const [, count, kind] of match[1].matchAll(/(\d+) (passed|failed|skipped|todo)/g)) {
      if (kind === 'passed' || kind === 'failed' || kind === 'skipped') totals[kind] += Number(count);
    }
  }
}
const infra = await ensureInfra('test', (line) => console.log(`[test infra] ${line}`));
if (infra.started.includes('postgres')) await dropStaleTestDatabases();
let code = 1;
try {
  code = await new Promise<number>((resolve) => {
    const withoutClockFiles = process.argv.includes('--without-clock-files');
    const args = ['run-many', '-t', 'test', '--outputStyle=stream-without-prefixes', ...process.argv.slice(2).filter((arg) => arg !== '--without-clock-files')];
    // read by jest.preset.js: Jest's testPathIgnorePatterns, one regular expression a line
    const ignore = withoutClockFiles ? { ACADEMY_TEST_IGNORE: CLOCK_FILES.map((file) => `/${file.replaceAll('.', '\\.')}$`).join('\n') } : {};
    if (withoutClockFiles) console.log(`npm test: without the ${CLOCK_FILES.length} files test:clocks runs (--without-clock-files)`);
    const child = spawn('nx', args, { stdio: ['inherit', 'pipe', 'pipe'], env: { ...process.env, NX_DAEMON: 'false', ...ignore } });
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      output.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      output.push(chunk);
    });
    child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
  });
} finally {
  if (infra.started.length) await stopInfra('test', infra.started);
}
countTests(Buffer.concat(output).toString('utf8'));
if (failures.length) console.log(`\nnpm test: what failed (Jest's FAIL and ● lines)\n${failures.map((line) => `  ${line}`).join('\n')}`);
console.log(
  `\nnpm test: ${code === 0 ? 'PASSED' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s: ` +
    `${totals.passed} tests passed, ${totals.failed} failed, ${totals.skipped} skipped, in ${totals.suites} projects`,
);
process.exit(code);
