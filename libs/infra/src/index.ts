// Local infrastructure without a Docker engine: PostgreSQL, RabbitMQ and Redis started from the
// machine's own binaries, on loopback, their data under `.local/<profile>/`. Used by `npm start`
// (profile "dev"), `npm test` and Jest's global setup (profile "test", other ports, other data).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync, rmSync, chownSync, openSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type Profile = 'dev' | 'test';
export type ServerName = 'postgres' | 'rabbitmq' | 'redis';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface ProfilePorts {
  postgres: number;
  rabbitmq: number;
  rabbitmqDist: number;
  rabbitmqManagement: number | null;
  redis: number;
}

export const PORTS: Record<Profile, ProfilePorts> = {
  dev: { postgres: 5432, rabbitmq: 5672, rabbitmqDist: 25672, rabbitmqManagement: 15672, redis: 6379 },
  // Below Linux's ephemeral range (32768–60999): a probe of a port in it can connect to itself and
  // leave a TIME-WAIT socket that keeps the server from binding.
  test: { postgres: 25432, rabbitmq: 25673, rabbitmqDist: 25674, rabbitmqManagement: null, redis: 26379, ...testPortsFromEnv() },
};

/**
 * `ACADEMY_TEST_PORTS` (JSON, e.g. `{"postgres":21001,"rabbitmq":21002,"rabbitmqDist":21003,"redis":21004}`) moves the
 * test servers, for a throwaway test profile beside the usual one (`npm run test:clocks`, with its own ACADEMY_LOCAL_DIR).
 */
function testPortsFromEnv(): Partial<ProfilePorts> {
  return process.env.ACADEMY_TEST_PORTS ? (JSON.parse(process.env.ACADEMY_TEST_PORTS) as Partial<ProfilePorts>) : {};
}

const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const RABBIT_BIN = '/usr/lib/rabbitmq/bin/rabbitmq-server';
const REDIS_BIN = '/usr/bin/redis-server';
const isRoot = process.getuid?.() === 0;

/** `.local/` of this checkout; ACADEMY_LOCAL_DIR points several checkouts at one set of servers. */
const localRoot = process.env.ACADEMY_LOCAL_DIR ?? path.join(repoRoot, '.local');

export function dataDir(profile: Profile, ...parts: string[]): string {
  return path.join(localRoot, profile, ...parts);
}

export function urls(profile: Profile) {
  const ports = PORTS[profile];
  return {
    postgres: `postgres://postgres@127.0.0.1:${ports.postgres}`,
    rabbitmq: `amqp://guest:guest@127.0.0.1:${ports.rabbitmq}`,
    redis: `redis://127.0.0.1:${ports.redis}`,
    rabbitmqManagement: ports.rabbitmqManagement ? `http://127.0.0.1:${ports.rabbitmqManagement}` : null,
  };
}

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

function readPid(file: string): number | null {
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0]?.trim());
  return Number.isInteger(pid) && pid > 0 && pidAlive(pid) ? pid : null;
}

const pidFile = (profile: Profile, server: ServerName) =>
  server === 'postgres' ? dataDir(profile, 'postgres', 'postmaster.pid') : dataDir(profile, `${server}.pid`);

/** Installs RabbitMQ and Redis with apt-get when they are missing and we are root. */
function ensureInstalled(log: (line: string) => void): void {
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

/**
 * Redis always runs on the real clock: Debian's redis-server links jemalloc, which hangs under libfaketime
 * (wolfcw/libfaketime#130, `npm run test:clocks`); every key's expiry is relative (EX/PX), so its clock never meets ours.
 */
function redisEnv(): NodeJS.ProcessEnv {
  const { LD_PRELOAD, ...env } = process.env;
  return LD_PRELOAD?.includes('faketime') ? env : process.env;
}

function spawnDetached(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; logFile: string; cwd?: string }): number {
  const out = openSync(opts.logFile, 'a');
  const child = spawn(cmd, args, { detached: true, stdio: ['ignore', out, out], env: opts.env ?? process.env, cwd: opts.cwd });
  child.unref();
  if (!child.pid) throw new InfraError(`could not start ${cmd}`);
  return child.pid;
}

function asPostgresUser(cmd: string, args: string[]): [string, string[]] {
  return isRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
}

async function startPostgres(profile: Profile): Promise<void> {
  const dir = dataDir(profile, 'postgres');
  const port = PORTS[profile].postgres;
  const logFile = dataDir(profile, 'postgres.log');
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    mkdirSync(dir, { recursive: true });
    if (isRoot) chownSync(dir, uidOf('postgres'), gidOf('postgres'));
    const [cmd, args] = asPostgresUser(path.join(PG_BIN, 'initdb'), ['-D', dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
    const result = spawnSync(cmd, args, { encoding: 'utf8' });
    if (result.status !== 0) throw new InfraError(`initdb failed: ${result.stderr || result.stdout}`);
  }
  writeFileSync(logFile, '', { flag: 'a' });
  if (isRoot) chownSync(logFile, uidOf('postgres'), gidOf('postgres'));
  const settings = [
    `-p ${port}`,
    `-c listen_addresses=127.0.0.1`,
    `-c unix_socket_directories=`,
    `-c max_connections=300`,
    `-c fsync=${profile === 'test' ? 'off' : 'on'}`,
    `-c synchronous_commit=${profile === 'test' ? 'off' : 'on'}`,
    `-c full_page_writes=${profile === 'test' ? 'off' : 'on'}`,
  ].join(' ');
  const [cmd, args] = asPostgresUser(path.join(PG_BIN, 'pg_ctl'), ['-D', dir, '-l', logFile, '-o', settings, '-w', '-t', '30', 'start']);
  const result = spawnSync(cmd, args, { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new InfraError(`PostgreSQL failed to start on port ${port}: ${tail(logFile)}`);
  }
}

function uidOf(user: string): number {
  return Number(spawnSync('id', ['-u', user], { encoding: 'utf8' }).stdout.trim());
}
function gidOf(user: string): number {
  return Number(spawnSync('id', ['-g', user], { encoding: 'utf8' }).stdout.trim());
}

/** The last `lines` lines of a log file, for error messages. */
export function tail(file: string, lines = 15): string {
  if (!existsSync(file)) return '(no log)';
  return readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join('\n');
}

async function startRabbit(profile: Profile): Promise<void> {
  const ports = PORTS[profile];
  // Test brokers start empty: queues and exchanges of earlier runs are throwaway.
  if (profile === 'test') rmSync(dataDir(profile, 'rabbitmq', 'mnesia'), { recursive: true, force: true });
  await launchRabbit({
    dir: dataDir(profile, 'rabbitmq'),
    // a moved test profile runs beside the usual test broker: one Erlang node name each
    nodeName: `academy-${profile}${profile === 'test' && process.env.ACADEMY_TEST_PORTS ? `-${ports.rabbitmq}` : ''}@localhost`,
    port: ports.rabbitmq,
    distPort: ports.rabbitmqDist,
    managementPort: ports.rabbitmqManagement,
    logFile: dataDir(profile, 'rabbitmq.log'),
    pidFile: pidFile(profile, 'rabbitmq'),
  });
}

interface RabbitLaunch {
  dir: string;
  nodeName: string;
  port: number;
  distPort: number;
  managementPort: number | null;
  logFile: string;
  pidFile: string;
}

async function launchRabbit(options: RabbitLaunch): Promise<number> {
  const { dir, port } = options;
  mkdirSync(dir, { recursive: true });
  const plugins = options.managementPort ? '[rabbitmq_management].' : '[].';
  writeFileSync(path.join(dir, 'enabled_plugins'), plugins);
  const conf = [
    `listeners.tcp.default = 127.0.0.1:${port}`,
    'loopback_users = none',
    ...(options.managementPort ? [`management.tcp.port = ${options.managementPort}`, 'management.tcp.ip = 127.0.0.1'] : []),
  ];
  writeFileSync(path.join(dir, 'rabbitmq.conf'), conf.join('\n') + '\n');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: dir,
    RABBITMQ_NODENAME: options.nodeName,
    RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
    RABBITMQ_NODE_PORT: String(port),
    RABBITMQ_DIST_PORT: String(options.distPort),
    RABBITMQ_MNESIA_BASE: path.join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: path.join(dir, 'log'),
    RABBITMQ_FEATURE_FLAGS_FILE: path.join(dir, 'feature_flags'),
    RABBITMQ_ENABLED_PLUGINS_FILE: path.join(dir, 'enabled_plugins'),
    RABBITMQ_CONFIG_FILE: path.join(dir, 'rabbitmq.conf'),
    RABBITMQ_PID_FILE: path.join(dir, 'pid'),
    ERL_EPMD_ADDRESS: '127.0.0.1',
  };
  const pid = spawnDetached(RABBIT_BIN, [], { env, logFile: options.logFile, cwd: dir });
  writeFileSync(options.pidFile, String(pid));
  await waitFor(`RabbitMQ on port ${port}`, async () => {
    if (!pidAlive(pid)) throw new InfraError(`RabbitMQ exited: ${tail(options.logFile)}`);
    return amqpHandshake(port);
  }, 60_000);
  return pid;
}

async function stopPid(pid: number, signal: NodeJS.Signals, graceMs = 30_000): Promise<void> {
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

/** An extra RabbitMQ, separate from the profiles' servers, that a fault test starts, stops and restarts by pid. */
export interface RabbitInstance {
  readonly url: string;
  readonly port: number;
  readonly pid: number | null;
  /** Its data and log folder. */
  readonly dir: string;
  start(): Promise<void>;
  /** Clean stop (SIGTERM), data kept: durable queues and persistent messages survive a restart. */
  stop(): Promise<void>;
  restart(): Promise<void>;
  /** Stops it and deletes its data. */
  destroy(): Promise<void>;
}

/**
 * Starts a separate RabbitMQ for fault tests ("faults" folder under the local dir), on free
 * ports unless given, never touching the shared test or dev servers.
 */
export async function startFaultRabbit(name: string, ports: { port?: number; distPort?: number } = {}): Promise<RabbitInstance> {
  ensureInstalled(() => {});
  const port = ports.port ?? (await freePort());
  const distPort = ports.distPort ?? (await freePort());
  const id = `${name.replace(/\W/g, '_')}_${port}`;
  const dir = path.join(localRoot, 'faults', id);
  rmSync(dir, { recursive: true, force: true });
  let pid: number | null = null;
  const launch = async () => {
    pid = await launchRabbit({
      dir,
      nodeName: `academy-faults-${id}@localhost`,
      port,
      distPort,
      managementPort: null,
      logFile: path.join(dir, 'rabbitmq.log'),
      pidFile: path.join(dir, 'server.pid'),
    });
  };
  const stop = async () => {
    if (pid && pidAlive(pid)) await stopPid(pid, 'SIGTERM');
    pid = null;
  };
  await launch();
  return {
    url: `amqp://guest:guest@127.0.0.1:${port}`,
    port,
    dir,
    get pid() {
      return pid;
    },
    start: async () => {
      if (!pid) await launch();
    },
    stop,
    restart: async () => {
      await stop();
      await launch();
    },
    destroy: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** An extra Redis for fault tests: paused (SIGSTOP, a hung server), resumed, stopped and started by pid. */
export interface RedisInstance {
  readonly url: string;
  readonly port: number;
  readonly pid: number | null;
  start(): Promise<void>;
  /** SIGSTOP: the server keeps its sockets open and answers nothing (a hang or a silent network cut). */
  pause(): void;
  resume(): void;
  /** SIGTERM (resumed first if paused): connections are refused until `start()`. */
  stop(): Promise<void>;
  destroy(): Promise<void>;
}

/** Starts a separate Redis (no persistence) on a free port, never touching the shared test or dev servers. */
export async function startFaultRedis(name: string): Promise<RedisInstance> {
  ensureInstalled(() => {});
  const port = await freePort();
  const dir = path.join(localRoot, 'faults', `redis_${name.replace(/\W/g, '_')}_${port}`);
  mkdirSync(dir, { recursive: true });
  let pid: number | null = null;
  let paused = false;
  const start = async () => {
    if (pid) return;
    const started = spawnDetached(REDIS_BIN, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], { logFile: path.join(dir, 'redis.log'), env: redisEnv() });
    pid = started;
    await waitFor(`Redis on port ${port}`, async () => {
      if (!pidAlive(started)) throw new InfraError(`Redis exited: ${tail(path.join(dir, 'redis.log'))}`);
      return portIsOpen(port);
    }, 15_000);
  };
  const signal = (name: NodeJS.Signals) => {
    if (pid) process.kill(pid, name);
  };
  const stop = async () => {
    if (!pid) return;
    if (paused) signal('SIGCONT');
    paused = false;
    if (pidAlive(pid)) await stopPid(pid, 'SIGTERM', 10_000);
    pid = null;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get pid() {
      return pid;
    },
    start,
    pause: () => {
      signal('SIGSTOP');
      paused = true;
    },
    resume: () => {
      signal('SIGCONT');
      paused = false;
    },
    stop,
    destroy: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** True once RabbitMQ answers the AMQP protocol header (the port opens a little before it is usable). */
function amqpHandshake(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write(Buffer.from('AMQP\x00\x00\x09\x01', 'latin1')));
    socket.once('data', (chunk) => done(chunk[0] === 1 /* connection.start frame */));
  });
}

async function startRedis(profile: Profile): Promise<void> {
  const dir = dataDir(profile, 'redis');
  mkdirSync(dir, { recursive: true });
  const port = PORTS[profile].redis;
  const pid = spawnDetached(REDIS_BIN, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', profile === 'test' ? '' : '60 1', '--appendonly', 'no'], {
    logFile: dataDir(profile, 'redis.log'),
    env: redisEnv(),
  });
  writeFileSync(pidFile(profile, 'redis'), String(pid));
  await waitFor(`Redis on port ${port}`, async () => {
    if (!pidAlive(pid)) throw new InfraError(`Redis exited: ${tail(dataDir(profile, 'redis.log'))}`);
    return portIsOpen(port);
  }, 15_000);
}

const starters: Record<ServerName, (profile: Profile) => Promise<void>> = {
  postgres: startPostgres,
  rabbitmq: startRabbit,
  redis: startRedis,
};
const portOf = (profile: Profile, server: ServerName) => PORTS[profile][server];

export interface EnsureResult {
  started: ServerName[];
  reused: ServerName[];
}

/**
 * Starts whichever of the three servers is not already running for this profile and reuses the
 * others. A port held by a process that is not ours is an error that names the port.
 */
export async function ensureInfra(profile: Profile, log: (line: string) => void = () => {}, servers: ServerName[] = ['postgres', 'rabbitmq', 'redis']): Promise<EnsureResult> {
  ensureInstalled(log);
  mkdirSync(dataDir(profile), { recursive: true });
  const result: EnsureResult = { started: [], reused: [] };
  await Promise.all(
    servers.map(async (server) => {
      const port = portOf(profile, server);
      const ours = readPid(pidFile(profile, server));
      if (await portIsOpen(port)) {
        if (ours) {
          result.reused.push(server);
          return;
        }
        throw new InfraError(`port ${port} (${server}) is already in use by another process; stop it or free the port`);
      }
      log(`starting ${server} on 127.0.0.1:${port}`);
      await starters[server](profile);
      result.started.push(server);
    }),
  ).catch(async (error) => {
    await stopInfra(profile, result.started);
    throw error;
  });
  return result;
}

/** Stops the servers of a profile by the process ids we recorded when starting them. */
export async function stopInfra(profile: Profile, servers: ServerName[] = ['postgres', 'rabbitmq', 'redis']): Promise<ServerName[]> {
  const stopped: ServerName[] = [];
  await Promise.all(
    servers.map(async (server) => {
      const pid = readPid(pidFile(profile, server));
      if (!pid) return;
      // SIGINT is PostgreSQL's "fast" shutdown; RabbitMQ and Redis treat SIGTERM as a clean stop.
      await stopPid(pid, server === 'postgres' ? 'SIGINT' : 'SIGTERM');
      stopped.push(server);
    }),
  );
  return stopped;
}

export async function resetInfra(profile: Profile): Promise<void> {
  await stopInfra(profile);
  rmSync(dataDir(profile), { recursive: true, force: true });
}
