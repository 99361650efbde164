import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

const root = path.resolve(import.meta.dirname, '../../..');
export const SYSTEM_FILE = path.join(root, 'dist', 'console-system.json');

/** Starts tools/console/system.ts and waits for its addresses; the returned teardown stops it. */
export default async function globalSetup(): Promise<(() => Promise<void>) | void> {
  // CONSOLE_SYSTEM (the JSON that tools/console/system.ts writes) reuses a system already running.
  if (process.env.CONSOLE_SYSTEM) return;
  rmSync(SYSTEM_FILE, { force: true });
  const child = spawn(process.execPath, [path.join(root, 'tools/console/system.ts'), SYSTEM_FILE], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  // Five minutes, scaled as the harness scales its readiness times (SYSTEM_READY_FACTOR, a loaded machine).
  const factor = Number(process.env.SYSTEM_READY_FACTOR ?? '1');
  const limitMs = 300_000 * (Number.isFinite(factor) && factor > 0 ? factor : 1);
  const deadline = Date.now() + limitMs;
  while (!existsSync(SYSTEM_FILE)) {
    if (child.exitCode !== null) throw new Error(`the console's system exited (${child.exitCode}) before it was up`);
    if (Date.now() > deadline) throw new Error(`the console system did not come up in ${limitMs / 60_000} minutes`);
    await delay(500);
  }
  process.env.CONSOLE_SYSTEM = readFileSync(SYSTEM_FILE, 'utf8');
  return async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
  };
}
