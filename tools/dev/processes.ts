// Child processes of a local system: the services, the mail catcher, the seed. Shared by `npm start`
// (tools/dev/start.ts) and the system and replica test profiles (tools/system/harness.ts), so both
// start the system the same way: `node apps/<service>/src/main.ts` with the service's environment,
// output appended to one log file per process, readiness by `/readyz`, stop by pid; both run the
// long-lived ones under a Supervisor (tools/dev/supervisor.ts), which restarts a crashed one.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import path from 'node:path';
import { repoRoot, tail, waitFor } from '@academy/infra';

export interface LoggedChild {
  name: string;
  child: ChildProcess;
  logFile: string;
}

/** Starts `command args` from the repository root (or `cwd`: another checkout, test:compat's worktree of a release), stdout and stderr appended to `logFile`. */
export function spawnLogged(name: string, command: string, args: string[], options: { logFile: string; env?: NodeJS.ProcessEnv; cwd?: string }): LoggedChild {
  const out = openSync(options.logFile, 'a');
  try {
    const child = spawn(command, args, { cwd: options.cwd ?? repoRoot, stdio: ['ignore', out, out], env: { ...process.env, ...options.env } });
    return { name, child, logFile: options.logFile };
  } finally {
    closeSync(out); // the child holds its own descriptor
  }
}

/** The tracing preload every app starts with (libs/telemetry): it does nothing unless OTEL_EXPORTER_OTLP_ENDPOINT is set. */
export const TELEMETRY_PRELOAD = ['--import', './libs/telemetry/src/register.ts'];

/**
 * Node's flags of every app, as the image's CMD has them: AsyncLocalStorage (tracing's context, the
 * request scope) without async hooks on every promise, the default from Node 24 (libs/telemetry README).
 */
export const NODE_FLAGS = ['--experimental-async-context-frame'];

/** `node --experimental-async-context-frame --import <telemetry> apps/<service>/src/main.ts` with the given environment. */
export function spawnService(service: string, options: { logFile: string; env?: NodeJS.ProcessEnv; cwd?: string }): LoggedChild {
  // A checkout of a release older than the preload runs without it.
  const preload = existsSync(path.join(options.cwd ?? repoRoot, TELEMETRY_PRELOAD[1])) ? TELEMETRY_PRELOAD : [];
  return spawnLogged(service, process.execPath, [...NODE_FLAGS, ...preload, path.join('apps', service, 'src/main.ts')], options);
}

/** maildev on loopback: SMTP on `smtpPort`, its web UI and REST API on `webPort`. */
export function spawnMailCatcher(ports: { smtpPort: number; webPort: number }, options: { logFile: string; env?: NodeJS.ProcessEnv }): LoggedChild {
  const bin = path.join(repoRoot, 'node_modules/maildev/bin/maildev');
  const args = [bin, '--ip', '127.0.0.1', '--web-ip', '127.0.0.1', '--smtp', String(ports.smtpPort), '--web', String(ports.webPort)];
  return spawnLogged('maildev', process.execPath, args, options);
}

export const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** SIGTERM (the services drain and close), SIGKILL after `graceMs`; resolves once the process is gone. */
export function stopChild(child: ChildProcess, graceMs = 15_000, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (hasExited(child)) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}


/** True when `url` answers 2xx within a second. */
export async function answersOk(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(1000) })).ok;
  } catch {
    return false;
  }
}

/** A started process as waitAllReady watches it (a Supervisor of tools/dev/supervisor.ts). */
export interface Watched {
  /** True once the process has exited since it was started, even if it was restarted since. */
  readonly exitedSinceStart: boolean;
  readonly logFile: string;
}

/**
 * Waits until every URL answers 2xx (a service's `/readyz`); fails at once, naming the log file,
 * when the process behind one exits first (a process that cannot start is not retried through a start).
 */
export async function waitAllReady(entries: { name: string; url: string; process?: Watched }[], timeoutMs = 90_000): Promise<void> {
  await Promise.all(
    entries.map(({ name, url, process: proc }) =>
      waitFor(`${name} (${url})`, async () => {
        if (proc?.exitedSinceStart) throw new Error(`${name} exited during start; last lines of ${path.relative(repoRoot, proc.logFile)}:\n${tail(proc.logFile)}`);
        return answersOk(url);
      }, timeoutMs),
    ),
  );
}
