import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** What `/version` answers: which app this is, which release of it, built from which commit. */
export interface BuildInfo {
  app: string;
  version: string;
  commit: string;
}

const repoRoot = path.resolve(import.meta.dirname, '../../..');
let gitHead: string | null | undefined;

/** The checkout's HEAD, asked of git once per process (a dev start, a test); null outside a checkout (an image). */
function checkoutCommit(): string | null {
  if (gitHead !== undefined) return gitHead;
  try {
    gitHead = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim() || null;
  } catch {
    gitHead = null;
  }
  return gitHead;
}

/** The app's last release in the checkout's `contracts/releases.json` (absent in an image, whose build sets APP_VERSION). */
function releasedVersion(app: string): string | null {
  try {
    const records = JSON.parse(readFileSync(path.join(repoRoot, 'contracts/releases.json'), 'utf8')) as Record<string, { version?: unknown }>;
    const version = records[app]?.version;
    return typeof version === 'string' ? version : null;
  } catch {
    return null;
  }
}

/**
 * The running version: `APP_VERSION` and `APP_COMMIT`, set by the image build (Dockerfile build
 * args, from the release record); in a checkout (`npm start`, tests) the app's last release in
 * `contracts/releases.json` and git's HEAD, which tells code ahead of its release by a commit other
 * than the release's.
 */
export function buildInfo(app: string, env: NodeJS.ProcessEnv = process.env): BuildInfo {
  return {
    app,
    version: env.APP_VERSION || releasedVersion(app) || '0.0.0-dev',
    commit: env.APP_COMMIT || checkoutCommit() || 'unknown',
  };
}
