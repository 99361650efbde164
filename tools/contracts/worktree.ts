// A checkout of another commit beside this one (git worktree), runnable without an install when its
// package-lock.json is this checkout's: its node_modules holds links to this checkout's packages,
// except the workspace's own (@academy/*), which link to the worktree's libs/ and tools/, so its
// apps run with its own libraries. With another lock file it gets its own `npm ci`.
//
// `cachedWorktree` keeps one per commit between runs (test:compat, then the release that runs it
// again), under the temp dir, keyed by the repository; `pruneWorktrees` drops those of commits no
// longer wanted.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './records.ts';

export interface Worktree {
  dir: string;
  commit: string;
  remove(): void;
}

const git = (args: string[], cwd = repoRoot) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 }).trim();

export function addWorktree(commit: string, label: string): Worktree {
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), `academy-${label}-`)), 'repo');
  checkout(dir, commit);
  return { dir, commit, remove: () => removeWorktree(dir) };
}

/** The lock file beside the installed packages: this checkout's, or the one its node_modules links to. */
const installedLock = () => readFileSync(path.resolve(realpathSync(path.join(repoRoot, 'node_modules', 'nx')), '../..', 'package-lock.json'), 'utf8').trim();

/** Where cached worktrees live: one folder per repository (its common git dir), one worktree per commit. */
export function worktreeCache(): string {
  const common = path.resolve(repoRoot, git(['rev-parse', '--git-common-dir']));
  return path.join(os.tmpdir(), `academy-compat-${createHash('sha1').update(common).digest('hex').slice(0, 10)}`);
}

/**
 * The worktree of `commit` from the cache, checked out (and linked or installed) on first use. A
 * cached one linked to packages that have since changed is made again. `fresh` says whether it was.
 */
export function cachedWorktree(commit: string): Worktree & { fresh: boolean } {
  const dir = path.join(worktreeCache(), commit, 'repo');
  const stamp = path.join(path.dirname(dir), 'packages');
  // the lock and the node_modules its links point to: a worktree cached by another checkout of this repository
  // (a rehearsal's, since removed) has links to packages that may be gone
  const packages = createHash('sha1').update(installedLock()).update(realpathSync(path.join(repoRoot, 'node_modules'))).digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === packages) {
    try {
      if (git(['rev-parse', 'HEAD'], dir) === commit) return { dir, commit, fresh: false, remove: () => removeWorktree(dir) };
    } catch {
      // not a worktree any more: made again below
    }
  }
  if (existsSync(path.dirname(dir))) removeWorktree(dir);
  mkdirSync(path.dirname(dir), { recursive: true });
  checkout(dir, commit);
  writeFileSync(stamp, packages);
  return { dir, commit, fresh: true, remove: () => removeWorktree(dir) };
}

/** Removes the cached worktrees of every commit but `keep`. */
export function pruneWorktrees(keep: Iterable<string>): void {
  const cache = worktreeCache();
  if (!existsSync(cache)) return;
  const wanted = new Set(keep);
  for (const commit of readdirSync(cache)) if (!wanted.has(commit)) removeWorktree(path.join(cache, commit, 'repo'));
}

function checkout(dir: string, commit: string): void {
  try {
    git(['worktree', 'add', '--detach', '--quiet', dir, commit]);
  } catch (error) {
    throw new Error(`git worktree add ${commit} failed: ${(error as { stderr?: string }).stderr ?? (error as Error).message}`);
  }
  // Dependencies changed since that commit: its own install (its lock file), the links would give it HEAD's packages.
  const sameLock = git(['show', `${commit}:package-lock.json`]) === installedLock();
  if (!sameLock) {
    try {
      execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    } catch (error) {
      throw new Error(`npm ci in the worktree of ${commit} (${dir}) failed: ${(error as { stderr?: string }).stderr ?? (error as Error).message}`);
    }
    return;
  }
  const modules = path.join(dir, 'node_modules');
  mkdirSync(modules);
  for (const entry of readdirSync(path.join(repoRoot, 'node_modules'))) {
    if (entry === '@academy') continue;
    symlinkSync(path.join(repoRoot, 'node_modules', entry), path.join(modules, entry));
  }
  mkdirSync(path.join(modules, '@academy'));
  for (const lib of readdirSync(path.join(dir, 'libs'))) symlinkSync(path.join(dir, 'libs', lib), path.join(modules, '@academy', lib));
  symlinkSync(path.join(dir, 'tools'), path.join(modules, '@academy', 'tools'));
}

function removeWorktree(dir: string): void {
  try {
    git(['worktree', 'remove', '--force', dir]);
  } catch {
    rmSync(dir, { recursive: true, force: true });
    git(['worktree', 'prune']);
  }
  rmSync(path.dirname(dir), { recursive: true, force: true });
}
