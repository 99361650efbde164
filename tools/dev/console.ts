// Builds the console (apps/console) into dist/apps/console, which the gateway serves at `/`: what
// `npm start` and the Playwright profile run first. Vite directly, not `nx build console`: on a busy
// machine Nx's project graph costs minutes, the build itself seconds.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '@academy/infra';

export function buildConsole(): void {
  const vite = path.join(repoRoot, 'node_modules/vite/bin/vite.js');
  const built = spawnSync(process.execPath, [vite, 'build', '-c', path.join(repoRoot, 'apps/console/vite.config.ts'), '--logLevel', 'warn'], { cwd: repoRoot, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('building the console failed (vite build, above)');
}

if (import.meta.main) buildConsole();
