// Where each profile's servers listen and keep their data.
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

/** `.local/` of this checkout; ACADEMY_LOCAL_DIR points several checkouts at one set of servers. */
export const localRoot = process.env.ACADEMY_LOCAL_DIR ?? path.join(repoRoot, '.local');

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

/** The pid file a server of this profile writes (PostgreSQL's own, ours for the others). */
export const pidFile = (profile: Profile, server: ServerName) =>
  server === 'postgres' ? dataDir(profile, 'postgres', 'postmaster.pid') : dataDir(profile, `${server}.pid`);
