// `npm run test:compat`: mixed versions, proven. For every app changed since its last release
// (contracts/releases.json; `nx show projects --affected` over the files changed since the recorded
// commit, release bookkeeping left out):
//   1. expand/contract on the schema: the release's database upgraded by HEAD's migrations still
//      holds what the release's code reads and writes (tools/contracts/schema.ts; seconds, names the
//      column; only for apps whose migrations changed);
//   2. the event journeys of test:system, and the personal data request saga (issue 35: a request
//      answered by every service, an erasure with a service stopped mid-saga), with apps at their
//      last release (a cached worktree of the recorded commit, built once) beside the others at
//      HEAD, each released app on HEAD's schema of its database (HEAD's migrations applied first, as
//      the old pods of a rolling deploy run). As few mixed systems as cover every pair of apps that
//      talk, both ways round (tools/contracts/compat-plan.ts): one for one changed app, four for all
//      six; each mix starts twice (the journeys' system, then the saga's own).
// With no app changed it says so and passes at once. A worktree that does not build fails loudly.
// `--plan` prints the runs and stops; `--apps=a,b` takes these apps as the changed ones (with no app
// changed, e.g. `--apps=hours-bank,incidents,payslips` runs those at their release beside HEAD);
// `--suites=privacy` runs one suite only (`journeys`, `privacy`; both by default); `--schema-only`
// stops after step 1.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { APPS, type AppName } from '@academy/contracts';
import { ensureInfra, stopInfra } from '@academy/infra';
import { planRuns, uncovered } from './compat-plan.ts';
import { RecordError, readRecords, repoRoot, type ReleaseRecord } from './records.ts';
import { releaseSchemaBreaks } from './schema.ts';
import { cachedWorktree, pruneWorktrees, worktreeCache } from './worktree.ts';

/** The journeys of tools/system/journeys.test.ts that cross apps by events (jest -t). */
export const EVENT_JOURNEYS = 'content blocks|school courses|attendance|incidents|payslips';
/**
 * What each mixed system runs: the journeys that cross apps by events (that file only: test:system's
 * other file starts a system of its own), and the whole privacy saga, a system of its own, where every
 * answering service must answer a request and an erasure waits for a service stopped mid-saga.
 */
export const SUITES = {
  journeys: ['tools/system/journeys.test.ts', '-t', EVENT_JOURNEYS],
  privacy: ['tools/system/privacy.system.test.ts'],
} as const;
type Suite = keyof typeof SUITES;
/** Files a release writes, or that no image ships (docs, deploy, CI, an app's or a library's own tests, the test-only libraries): a change to them alone changes no app. */
const BOOKKEEPING = [/^contracts\//, /^apps\/[^/]+\/CHANGELOG\.md$/, /\.md$/, /^deploy\//, /^\.ci\//, /^(apps|libs)\/[^/]+\/(test|e2e)\//, /^libs\/(testing|infra)\//];

const git = (args: string[]) => execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** The apps whose code (or a library they bundle, or the dependencies) changed between their release's commit and HEAD. */
export function changedApps(records: Record<AppName, ReleaseRecord>, head = 'HEAD'): AppName[] {
  const changed = new Set<AppName>();
  const byCommit = new Map<string, AppName[]>();
  for (const app of APPS) byCommit.set(records[app].commit, [...(byCommit.get(records[app].commit) ?? []), app]);
  for (const [commit, apps] of byCommit) {
    let files: string[];
    try {
      files = git(['diff', '--name-only', commit, head]).split('\n').filter(Boolean);
    } catch (error) {
      throw new RecordError(`contracts/releases.json: the commit ${commit} of ${apps.join(', ')} is not in this clone (${(error as { stderr?: string }).stderr?.trim() ?? ''}); fetch the history (git fetch --unshallow)`);
    }
    files = files.filter((file) => !BOOKKEEPING.some((pattern) => pattern.test(file)));
    if (!files.length) continue;
    const out = execFileSync('npx', ['nx', 'show', 'projects', '--affected', `--files=${files.join(',')}`, '--json'], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
      maxBuffer: 64 * 1024 * 1024,
    });
    const affected = JSON.parse(out.slice(out.indexOf('['))) as string[];
    for (const app of apps) if (affected.includes(app)) changed.add(app);
  }
  return APPS.filter((app) => changed.has(app));
}

const seconds = (since: number) => Math.round((Date.now() - since) / 1000);

/** Where a passing run of a clean checkout leaves its commit, for `npm run release` to find. */
export const passedFile = (commit: string) => path.join(worktreeCache(), 'passed', commit);

/** True when nothing but release bookkeeping differs from HEAD (tracked or not): the run proved HEAD itself. */
export function cleanCheckout(): boolean {
  const changed = git(['status', '--porcelain', '--untracked-files=all'])
    .split('\n')
    .filter(Boolean)
    .map((line) => line.slice(3).replace(/^.* -> /, ''));
  return !changed.some((file) => !BOOKKEEPING.some((pattern) => pattern.test(file)));
}

/** The apps whose migrations differ between their release and HEAD (the others' schema is the release's). */
function migrationsChanged(app: AppName, record: ReleaseRecord): boolean {
  if (app === 'gateway') return false;
  return git(['diff', '--name-only', record.commit, 'HEAD', '--', `apps/${app}/src/migrations`]) !== '';
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { apps: { type: 'string' }, suites: { type: 'string' }, plan: { type: 'boolean', default: false }, 'schema-only': { type: 'boolean', default: false } } });
  const suites = (values.suites ? values.suites.split(',') : Object.keys(SUITES)) as Suite[];
  const unknownSuites = suites.filter((suite) => !(suite in SUITES));
  if (unknownSuites.length) throw new Error(`test:compat: no suite ${unknownSuites.join(', ')} (${Object.keys(SUITES).join(', ')})`);
  const started = Date.now();
  const records = readRecords();
  const changed = values.apps ? (values.apps.split(',') as AppName[]) : changedApps(records);
  const unknown = changed.filter((app) => !APPS.includes(app));
  if (unknown.length) throw new Error(`test:compat: no app ${unknown.join(', ')} (${APPS.join(', ')})`);
  const head = git(['rev-parse', 'HEAD']);
  const releases = APPS.map((app) => `${app}@${records[app].version} (${records[app].commit.slice(0, 10)})`).join(', ');
  if (!changed.length) {
    console.log(`test:compat: no app changed since its last release (${releases}): nothing to run (${seconds(started)} s)`);
    return;
  }
  const runs = planRuns(changed);
  const gaps = uncovered(runs, changed);
  if (gaps.length) throw new Error(`test:compat: the plan leaves unshown: ${gaps.join('; ')}`);
  const migrated = changed.filter((app) => migrationsChanged(app, records[app]));
  console.log(`test:compat: changed since their last release: ${changed.map((app) => `${app}@${records[app].version}`).join(', ')} (found in ${seconds(started)} s)`);
  console.log(`test:compat: migrations changed since the release: ${migrated.length ? migrated.join(', ') : 'none'}`);
  console.log(`test:compat: ${runs.length} mixed system${runs.length > 1 ? 's' : ''} (each started for ${suites.join(' and ')}), every pair of changed apps that talk shown both ways round:`);
  for (const [i, run] of runs.entries()) console.log(`  ${i + 1}. ${run.atRelease.map((app) => `${app}@${records[app].version}`).join(', ')} at ${run.atRelease.length > 1 ? 'their releases' : 'its release'}${migrated.some((app) => run.atRelease.includes(app)) ? " (on HEAD's schema)" : ''}, the others at HEAD`);
  if (values.plan) return;

  // The worktrees of the release commits, each built once per app (cached between runs).
  const t0 = Date.now();
  const commits = new Set(changed.map((app) => records[app].commit));
  pruneWorktrees(commits);
  const roots = new Map<string, string>();
  for (const commit of commits) {
    const worktree = cachedWorktree(commit);
    roots.set(commit, worktree.dir);
    for (const app of changed.filter((a) => records[a].commit === commit)) {
      const stamp = path.join(path.dirname(worktree.dir), `built-${app}`);
      if (existsSync(stamp)) continue;
      const build = spawnSync(process.execPath, ['tools/build.ts', `apps/${app}`], { cwd: worktree.dir, encoding: 'utf8' });
      if (build.status !== 0) throw new Error(`test:compat: ${app}@${records[app].version} (${commit}) does not build in its worktree ${worktree.dir}:\n${build.stdout}${build.stderr}`);
      writeFileSync(stamp, new Date().toISOString());
    }
    console.log(`test:compat: worktree of ${commit.slice(0, 10)} ${worktree.fresh ? 'checked out' : 'reused'} at ${worktree.dir}`);
  }
  const rootOf = (app: AppName) => roots.get(records[app].commit)!;
  const timings = [`worktrees and builds ${seconds(t0)} s`];

  const infra = await ensureInfra('test', (line) => console.log(`[test infra] ${line}`), ['postgres', 'redis']);
  const failures: string[] = [];
  try {
    // 1. The schema: each changed app's release database, upgraded by HEAD's migrations.
    const t1 = Date.now();
    const schema = await Promise.allSettled(migrated.map((app) => releaseSchemaBreaks(app, rootOf(app), repoRoot)));
    for (const [i, result] of schema.entries()) {
      const app = migrated[i];
      const who = `${app}@${records[app].version} on HEAD's schema`;
      if (result.status === 'rejected') failures.push(`${who}: ${(result.reason as Error).message}`);
      else for (const b of result.value) failures.push(`${who}: ${b.field}: ${b.rule}`);
    }
    if (migrated.length) timings.push(`schema ${seconds(t1)} s`);
    if (failures.length) {
      console.error(`\ntest:compat: HEAD's migrations take away what the released code uses (expand now, drop it a release later):\n${failures.map((line) => `  ${line}`).join('\n')}`);
    } else if (migrated.length) console.log(`test:compat: schema: every release's tables and columns still there for its code (${migrated.join(', ')})`);

    // 2. The suites, one system start per run and suite (skipped once the schema failed: the old pods would).
    if (!failures.length && !values['schema-only']) {
      for (const [i, run] of runs.entries()) {
        for (const suite of suites) {
          const name = `${suite}: ${run.atRelease.map((app) => `${app}@${records[app].version}`).join(', ')} beside HEAD`;
          const t2 = Date.now();
          console.log(`\n=== test:compat ${i + 1}/${runs.length} ${name}`);
          const result = spawnSync(
            process.execPath,
            ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning', 'node_modules/jest/bin/jest.js', '-c', 'tools/system/jest.system.config.js', ...SUITES[suite]],
            {
              cwd: repoRoot,
              stdio: 'inherit',
              env: {
                ...process.env,
                SYSTEM_APP_ROOTS: JSON.stringify(Object.fromEntries(run.atRelease.map((app) => [app, rootOf(app)]))),
                SYSTEM_MIGRATE_AT_HEAD: run.atRelease.filter((app) => migrated.includes(app)).join(','),
              },
            },
          );
          timings.push(`run ${i + 1} ${suite} ${seconds(t2)} s`);
          console.log(`=== ${name}: ${result.status === 0 ? 'passed' : 'FAILED'} in ${seconds(t2)} s`);
          if (result.status !== 0) failures.push(name);
        }
      }
    }
  } finally {
    if (infra.started.length) await stopInfra('test', infra.started);
  }
  const total = seconds(started);
  if (failures.length) {
    console.error(`\ntest:compat: FAILED in ${total} s (${timings.join(', ')}):\n${failures.map((name) => `  ${name}`).join('\n')}`);
    process.exitCode = 1;
    return;
  }
  if (values['schema-only']) {
    console.log(`\ntest:compat: schema passed, journeys not run (--schema-only) (${total} s)`);
    return;
  }
  console.log(`\ntest:compat: ${runs.length} mixed-version run${runs.length > 1 ? 's' : ''} passed for ${changed.join(', ')} in ${total} s (${timings.join(', ')})`);
  if (!values.apps && cleanCheckout()) {
    mkdirSync(path.dirname(passedFile(head)), { recursive: true });
    writeFileSync(passedFile(head), `${JSON.stringify({ commit: head, apps: changed, runs: runs.map((run) => run.atRelease), seconds: total, date: new Date().toISOString() })}\n`);
  }
}

if (import.meta.main) {
  try {
    await main();
  } catch (error) {
    console.error(error instanceof RecordError ? `test:compat: ${error.message}` : error);
    process.exitCode = 1;
  }
}
