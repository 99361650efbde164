// RabbitMQ: a profile's broker, and the launch a fault test's broker shares with it.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { dataDir, pidFile, PORTS, type Profile } from './profiles.ts';
import { InfraError, RABBIT_BIN, pidAlive, spawnDetached, tail, waitFor } from './processes.ts';

export async function startRabbit(profile: Profile): Promise<void> {
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

export interface RabbitLaunch {
  dir: string;
  nodeName: string;
  port: number;
  distPort: number;
  managementPort: number | null;
  logFile: string;
  pidFile: string;
  /** How long it may take to answer AMQP (default 60 s; more on a loaded machine). */
  readyMs?: number;
}

export async function launchRabbit(options: RabbitLaunch): Promise<number> {
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
  }, options.readyMs ?? 60_000);
  return pid;
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
