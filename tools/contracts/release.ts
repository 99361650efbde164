// `npm run release -- [--first-release] [--specifier=1.0.0|patch|minor|major] [--projects=a,b] [--dry-run]`
//
// Releases the apps whose code changed since their last release (`nx release version`: independent
// projects, the bump from conventional commits `feat(app): …` / `fix(app): …` unless a specifier is
// given), then for each released app: its CHANGELOG.md (`nx release changelog`), its contracts
// snapshot taken at the commit being released (a worktree of HEAD, so uncommitted work never leaks
// in), its record in contracts/releases.json (version, commit, tag, date), its image tag in the
// production overlay, the README's table; one commit `chore(release): …` of exactly those files,
// and a tag `<app>@<version>` on it per app. Run it from a checkout whose HEAD is what you release.
//
// A release is only cut on a passing compat run of the commit it releases: `contracts:check`, then
// `test:compat` (both in a worktree of HEAD, so uncommitted work neither helps nor hurts), unless
// `npm run test:compat` already passed on a clean checkout of that very commit (it leaves a
// stamp). Not for `--dry-run`, nor for `--first-release` (no release to be compatible with);
// `--no-compat` skips it and the release commit's message says so.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { releaseChangelog, releaseVersion } from 'nx/release';
import { APPS, type AppName } from '@academy/contracts';
import { passedFile } from './compat-run.ts';
import type { AppContract } from './contracts.ts';
import { readRecordsIfAny, recordsFile, repoRoot, snapshotFile, type ReleaseRecord } from './records.ts';
import { readmeFile, renderTable, withTable } from './table.ts';
import { addWorktree } from './worktree.ts';

const git = (args: string[], input?: string) => execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', input, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] }).trim();
export const overlayFile = path.join(repoRoot, 'deploy/kubernetes/overlays/production/kustomization.yaml');

/** The production overlay with `app`'s image tag set to `tag` (what `kustomize edit set image` does, on the one line). */
export function withImageTag(overlay: string, app: AppName, tag: string): string {
  const line = new RegExp(`(\\{ name: academy/${app}, newName: [^,]+, newTag: )[^ }]+( \\})`);
  if (!line.test(overlay)) throw new Error(`${path.relative(process.cwd(), overlayFile)}: no image line for academy/${app}`);
  return overlay.replace(line, `$1${tag}$2`);
}

/** Commits exactly `files` (path → content) on top of HEAD with a private index, leaving whatever else is staged or changed alone. */
function commitFiles(files: Map<string, string>, message: string): string {
  const index = path.join(os.tmpdir(), `academy-release-index-${process.pid}`);
  const env = { ...process.env, GIT_INDEX_FILE: index };
  const run = (args: string[], input?: string) => execFileSync('git', args, { cwd: repoRoot, env, encoding: 'utf8', input }).trim();
  const head = git(['rev-parse', 'HEAD']);
  run(['read-tree', 'HEAD']);
  for (const [file, content] of files) {
    const blob = git(['hash-object', '-w', '--stdin'], content);
    run(['update-index', '--add', '--cacheinfo', `100644,${blob},${file}`]);
    git(['update-index', '--add', '--cacheinfo', `100644,${blob},${file}`]);
  }
  const tree = run(['write-tree']);
  rmSync(index, { force: true });
  const commit = git(['commit-tree', tree, '-p', head, '-m', message]);
  git(['update-ref', '-m', `release: ${message}`, 'HEAD', commit, head]);
  return commit;
}

/** Refuses (throws) unless `contracts:check` and `test:compat` pass at `commit`; a stamp of a passing run of it will do for the second. */
export function requirePassingCompat(commit: string): void {
  if (existsSync(passedFile(commit))) {
    const stamp = JSON.parse(readFileSync(passedFile(commit), 'utf8')) as { date: string; apps: string[]; seconds: number };
    console.log(`release: test:compat passed at ${commit.slice(0, 10)} on ${stamp.date} (${stamp.apps.join(', ')}, ${stamp.seconds} s); contracts:check runs again`);
  }
  const worktree = addWorktree(commit, 'release-compat');
  try {
    // The test servers are this checkout's, whichever checkout the checks run from.
    const env = { ...process.env, ACADEMY_LOCAL_DIR: process.env.ACADEMY_LOCAL_DIR ?? path.join(repoRoot, '.local') };
    const steps = [['tools/contracts/check.ts'], ...(existsSync(passedFile(commit)) ? [] : [['tools/contracts/compat-run.ts']])];
    for (const step of steps) {
      console.log(`release: node ${step.join(' ')} at ${commit.slice(0, 10)}`);
      const run = spawnSync(process.execPath, step, { cwd: worktree.dir, stdio: 'inherit', env });
      if (run.status !== 0) throw new Error(`release: refused: ${step[0]} failed at ${commit} (fix it, or release the apps it names first; nothing was versioned)`);
    }
  } finally {
    worktree.remove();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { 'first-release': { type: 'boolean', default: false }, specifier: { type: 'string' }, projects: { type: 'string' }, 'dry-run': { type: 'boolean', default: false }, 'no-compat': { type: 'boolean', default: false }, verbose: { type: 'boolean', default: false } },
  });
  const dryRun = values['dry-run'];
  const projects = values.projects ? values.projects.split(',') : [...APPS];
  const base = git(['rev-parse', 'HEAD']);
  // --no-compat: cut it without the compat run (a machine that cannot start the system); the release commit says so.
  const unchecked = values['no-compat'] && !dryRun && !values['first-release'];
  if (unchecked) console.warn('release: --no-compat: contracts:check and test:compat NOT run; the release commit will say so');
  else if (!dryRun && !values['first-release']) requirePassingCompat(base);
  // The tags go on the commit the release is committed on top of: refuse when commits landed while test:compat ran
  // (a shared tree, ten minutes), or the tags would carry code it did not check.
  const moved = git(['rev-parse', 'HEAD']);
  if (moved !== base) throw new Error(`release: refused: HEAD moved from ${base.slice(0, 10)} to ${moved.slice(0, 10)} while test:compat ran (nothing was versioned); run it again`);
  const version = await releaseVersion({ specifier: values.specifier, projects, firstRelease: values['first-release'], dryRun, verbose: values.verbose, gitCommit: false, gitTag: false, stageChanges: false });
  const released = Object.entries(version.projectsVersionData)
    .filter(([, data]) => data.newVersion)
    .map(([app, data]) => ({ app: app as AppName, version: data.newVersion as string }));
  if (!released.length) {
    console.log('release: no app changed since its last release (nothing to release)');
    return;
  }
  await releaseChangelog({ versionData: version.projectsVersionData, projects: released.map((r) => r.app), firstRelease: values['first-release'], dryRun, gitCommit: false, gitTag: false, stageChanges: false, createRelease: false });
  console.log(`release: ${released.map((r) => `${r.app}@${r.version}`).join(', ')} from ${base}`);
  if (dryRun) return;

  // The contracts of the commit being released, from a clean worktree of it.
  const worktree = addWorktree(base, 'release');
  let snapshots: Record<string, AppContract>;
  try {
    snapshots = JSON.parse(execFileSync(process.execPath, ['tools/contracts/snapshot.ts', ...released.map((r) => r.app)], { cwd: worktree.dir, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }));
  } finally {
    worktree.remove();
  }
  const files = new Map<string, string>();
  const rel = (file: string) => path.relative(repoRoot, file);
  const date = new Date().toISOString();
  const records = readRecordsIfAny() as Record<string, ReleaseRecord>;
  let overlay = git(['show', `HEAD:${rel(overlayFile)}`]) + '\n';
  for (const { app, version: v } of released) {
    records[app] = { version: v, commit: base, tag: `${app}@${v}`, date };
    const snapshot = `${JSON.stringify({ app, version: v, commit: base, contracts: snapshots[app] }, null, 2)}\n`;
    files.set(rel(snapshotFile(app, v)), snapshot);
    files.set(`apps/${app}/CHANGELOG.md`, readFileSync(path.join(repoRoot, 'apps', app, 'CHANGELOG.md'), 'utf8'));
    overlay = withImageTag(overlay, app, v);
  }
  const ordered = Object.fromEntries(APPS.filter((app) => records[app]).map((app) => [app, records[app]]));
  files.set(rel(recordsFile()), `${JSON.stringify(ordered, null, 2)}\n`);
  files.set(rel(overlayFile), overlay);
  // The README's table from the released contracts (of HEAD's README: others' uncommitted edits stay out).
  const { currentContracts } = await import('./contracts.ts');
  const table = renderTable({ ...currentContracts(), ...snapshots } as Record<AppName, AppContract>, ordered);
  files.set('README.md', withTable(git(['show', 'HEAD:README.md']) + '\n', table));
  const message = `chore(release): ${released.map((r) => `${r.app}@${r.version}`).join(', ')}${unchecked ? ' (cut with --no-compat: test:compat not run)' : ''}`;
  const commit = commitFiles(files, message);
  // The working tree gets the same changes, on top of whatever else is uncommitted in README.md and the overlay.
  let workingOverlay = readFileSync(overlayFile, 'utf8');
  for (const { app, version: v } of released) workingOverlay = withImageTag(workingOverlay, app, v);
  writeFileSync(overlayFile, workingOverlay);
  for (const [file, content] of files) {
    if (file === 'README.md' || file === rel(overlayFile)) continue;
    mkdirSync(path.dirname(path.join(repoRoot, file)), { recursive: true });
    writeFileSync(path.join(repoRoot, file), content);
  }
  writeFileSync(readmeFile(), withTable(readFileSync(readmeFile(), 'utf8'), table));
  for (const { app, version: v } of released) git(['tag', '-a', `${app}@${v}`, '-m', `${app} ${v}`, commit]);
  console.log(`release: committed ${commit.slice(0, 10)} (${message}), tagged ${released.map((r) => `${r.app}@${r.version}`).join(' ')}`);
}

if (import.meta.main) {
  try {
    await main();
  } catch (error) {
    if (!(error instanceof Error && error.message.startsWith('release: refused'))) throw error;
    console.error(error.message);
    process.exitCode = 1;
  }
}
