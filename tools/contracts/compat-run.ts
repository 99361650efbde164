// `npm run test:compat`: mixed versions, proven. For every app changed since its last release
// (contracts/releases.json; `nx show projects --affected` over the files changed since the recorded
// commit, release bookkeeping left out), the event journeys of test:system run three times:
//   1. that app at its last release (a worktree of the recorded commit) with every other app at HEAD;
//   2. that app at HEAD with every other app at its last release;
//   3. expand/contract: HEAD's migrations of that app applied first, then its last release's code on
//      that database (the old pods of a rolling deploy).
// With no app changed it says so and passes at once. A worktree that does not build fails loudly.
import { execFileSync, spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { APPS, type AppName } from '@academy/contracts';
import { RecordError, readRecords, repoRoot, type ReleaseRecord } from './records.ts';
import { addWorktree, type Worktree } from './worktree.ts';

/** The journeys of tools/system/journeys.test.ts that cross apps by events (jest -t). */
export const EVENT_JOURNEYS = 'content blocks|school courses|incidents|payslips';

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

const SCENARIOS = ['release-beside-head', 'head-beside-releases', 'expand-contract'] as const;

interface Scenario {
  kind: (typeof SCENARIOS)[number];
  name: string;
  roots: Partial<Record<AppName, string>>;
  migrateAtHead: AppName[];
}

function main(): void {
  // --apps=a,b: these apps instead of the changed ones; --scenarios=expand-contract,…: some of the three only (a rerun).
  const { values } = parseArgs({ options: { apps: { type: 'string' }, scenarios: { type: 'string' } } });
  const kinds = values.scenarios ? values.scenarios.split(',') : [...SCENARIOS];
  const unknown = kinds.filter((kind) => !(SCENARIOS as readonly string[]).includes(kind));
  if (unknown.length) throw new Error(`test:compat: unknown scenario ${unknown.join(', ')} (${SCENARIOS.join(', ')})`);
  const started = Date.now();
  const records = readRecords();
  const changed = values.apps ? (values.apps.split(',') as AppName[]) : changedApps(records);
  const releases = APPS.map((app) => `${app}@${records[app].version} (${records[app].commit.slice(0, 10)})`).join(', ');
  if (!changed.length) {
    console.log(`test:compat: no app changed since its last release (${releases}): nothing to run (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return;
  }
  console.log(`test:compat: changed since their last release: ${changed.join(', ')}`);
  const worktrees = new Map<string, Worktree>();
  const built = new Set<string>();
  /** The checkout of `app`'s last release, its bundle built (a release that no longer builds fails here, loudly). */
  const releaseRoot = (app: AppName): string => {
    const { commit, version } = records[app];
    let worktree = worktrees.get(commit);
    if (!worktree) worktrees.set(commit, (worktree = addWorktree(commit, `compat-${commit.slice(0, 8)}`)));
    if (!built.has(`${app}@${commit}`)) {
      const build = spawnSync(process.execPath, ['tools/build.ts', `apps/${app}`], { cwd: worktree.dir, encoding: 'utf8' });
      if (build.status !== 0) throw new Error(`test:compat: ${app}@${version} (${commit}) does not build in its worktree ${worktree.dir}:\n${build.stdout}${build.stderr}`);
      built.add(`${app}@${commit}`);
    }
    return worktree.dir;
  };
  const failures: string[] = [];
  try {
    for (const app of changed) {
      const version = records[app].version;
      const others = APPS.filter((other) => other !== app);
      const scenarios: (() => Scenario)[] = [
        () => ({ kind: 'release-beside-head', name: `${app}@${version} with the others at HEAD`, roots: { [app]: releaseRoot(app) }, migrateAtHead: [] }),
        () => ({ kind: 'head-beside-releases', name: `${app} at HEAD with the others at their last releases`, roots: Object.fromEntries(others.map((other) => [other, releaseRoot(other)])), migrateAtHead: [] }),
        () => ({ kind: 'expand-contract', name: `${app}@${version} on HEAD's schema (expand/contract)`, roots: { [app]: releaseRoot(app) }, migrateAtHead: app === 'gateway' ? [] : [app] }),
      ];
      for (const make of scenarios) {
        const kind = SCENARIOS[scenarios.indexOf(make)];
        // The gateway has no database: its expand/contract run would repeat the first one.
        if (!kinds.includes(kind) || (app === 'gateway' && kind === 'expand-contract')) continue;
        const scenario = make();
        const t0 = Date.now();
        console.log(`\n=== test:compat: ${scenario.name}`);
        const run = spawnSync(
          process.execPath,
          ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning', 'node_modules/jest/bin/jest.js', '-c', 'tools/system/jest.system.config.js', '-t', EVENT_JOURNEYS],
          { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, SYSTEM_APP_ROOTS: JSON.stringify(scenario.roots), SYSTEM_MIGRATE_AT_HEAD: scenario.migrateAtHead.join(',') } },
        );
        const seconds = ((Date.now() - t0) / 1000).toFixed(0);
        console.log(`=== ${scenario.name}: ${run.status === 0 ? 'passed' : 'FAILED'} in ${seconds} s`);
        if (run.status !== 0) failures.push(scenario.name);
      }
    }
  } finally {
    for (const worktree of worktrees.values()) worktree.remove();
  }
  const total = ((Date.now() - started) / 1000).toFixed(0);
  if (failures.length) {
    console.error(`\ntest:compat: ${failures.length} mixed-version run${failures.length > 1 ? 's' : ''} failed (${total} s):\n${failures.map((name) => `  ${name}`).join('\n')}`);
    process.exitCode = 1;
  } else console.log(`\ntest:compat: every mixed-version run passed (${total} s)`);
}

if (import.meta.main) {
  try {
    main();
  } catch (error) {
    console.error(error instanceof RecordError ? `test:compat: ${error.message}` : error);
    process.exitCode = 1;
  }
}
