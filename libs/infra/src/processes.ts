// What every server module uses: its binaries, installing them, starting, probing and stopping processes.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, openSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PORTS } from './profiles.ts';

export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
export const RABBIT_BIN = '/usr/lib/rabbitmq/bin/rabbitmq-server';
export const REDIS_BIN = '/usr/bin/redis-server';
export const isRoot = process.getuid?.() === 0;

export class InfraError extends Error {}

export function portIsOpen(port: number, host = '127.0.0.1', timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * The one polling helper of the tools and tests (`@academy/testing` re-exports it): calls `probe`
 * every `intervalMs` until it returns a value other than `undefined`, `null` or `false`, and returns
 * that value; past `timeoutMs`, throws naming `what`.
 */
export async function waitFor<T>(what: string, probe: () => T | Promise<T>, timeoutMs = 10_000, intervalMs = 100): Promise<Exclude<T, undefined | null | false>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value as Exclude<T, undefined | null | false>;
    if (Date.now() >= deadline) throw new InfraError(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function readPid(file: string): number | null {
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0]?.trim());
  return Number.isInteger(pid) && pid > 0 && pidAlive(pid) ? pid : null;
}

/** Installs RabbitMQ and Redis with apt-get when they are missing and we are root. */
export function ensureInstalled(log: (line: string) => void): void {
  const missing: string[] = [];
  if (!existsSync(RABBIT_BIN)) missing.push('rabbitmq-server');
  if (!existsSync(REDIS_BIN)) missing.push('redis-server');
  if (!existsSync(path.join(PG_BIN, 'postgres'))) missing.push('postgresql-15');
  if (missing.length === 0) return;
  if (!isRoot) {
    throw new InfraError(`missing ${missing.join(', ')}: install them (sudo apt-get install -y ${missing.join(' ')}) and run again`);
  }
  log(`installing ${missing.join(', ')} with apt-get…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', ...missing]]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) throw new InfraError(`apt-get ${args.join(' ')} failed (exit ${result.status})`);
  }
}

export function spawnDetached(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; logFile: string; cwd?: string }): number {
  const out = openSync(opts.logFile, 'a');
  const child = spawn(cmd, args, { detached: true, stdio: ['ignore', out, out], env: opts.env ?? process.env, cwd: opts.cwd });
  child.unref();
  if (!child.pid) throw new InfraError(`could not start ${cmd}`);
  return child.pid;
}

/** The last `lines` lines of a log file, for error messages. */
export function tail(file: string, lines = 15): string {
  if (!existsSync(file)) return '(no log)';
  return readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join('\n');
}

export async function stopPid(pid: number, signal: NodeJS.Signals, graceMs = 30_000): Promise<void> {
  process.kill(pid, signal);
  const deadline = Date.now() + graceMs;
  while (pidAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (pidAlive(pid)) process.kill(pid, 'SIGKILL');
}

/**
 * A free TCP port on loopback, below the ephemeral range (see PORTS) and apart from the profiles'
 * ports, so that probing it while its server restarts can never connect a socket to itself.
 */
export async function freePort(): Promise<number> {
  const reserved = new Set(Object.values(PORTS).flatMap((ports) => Object.values(ports)));
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (reserved.has(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new InfraError('no free port found between 20000 and 32000');
}
