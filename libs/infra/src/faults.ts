// Servers of fault tests: apart from the profiles' servers, on free ports, stopped and restarted by pid.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { localRoot } from './profiles.ts';
import { InfraError, REDIS_BIN, ensureInstalled, freePort, pidAlive, portIsOpen, spawnDetached, stopPid, tail, waitFor } from './processes.ts';
import { launchRabbit } from './rabbitmq.ts';
import { redisEnv } from './redis.ts';

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
export async function startFaultRabbit(name: string, ports: { port?: number; distPort?: number; readyMs?: number } = {}): Promise<RabbitInstance> {
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
      readyMs: ports.readyMs,
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
