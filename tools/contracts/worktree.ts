// A checkout of another commit beside this one (git worktree), runnable without an install when its
// package-lock.json is this checkout's: its node_modules holds links to this checkout's packages,
// except the workspace's own (@academy/*), which link to the worktree's libs/ and tools/, so its
// apps run with its own libraries. With another lock file it gets its own `npm ci`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
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
  try {
    git(['worktree', 'add', '--detach', '--quiet', dir, commit]);
  } catch (error) {
    throw new Error(`git worktree add ${commit} failed: ${(error as { stderr?: string }).stderr ?? (error as Error).message}`);
  }
  // Dependencies changed since that commit: its own install (its lock file), the links would give it HEAD's packages.
  // (the lock file beside the installed packages: this checkout's, or the one its node_modules links to)
  const installedLock = path.resolve(realpathSync(path.join(repoRoot, 'node_modules', 'nx')), '../..', 'package-lock.json');
  const sameLock = git(['show', `${commit}:package-lock.json`]) === readFileSync(installedLock, 'utf8').trim();
  if (!sameLock) {
    try {
      execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    } catch (error) {
      throw new Error(`npm ci in the worktree of ${commit} (${dir}) failed: ${(error as { stderr?: string }).stderr ?? (error as Error).message}`);
    }
    return { dir, commit, remove: () => removeWorktree(dir) };
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
  return { dir, commit, remove: () => removeWorktree(dir) };
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
