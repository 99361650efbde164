// Local infrastructure without a Docker engine: PostgreSQL, RabbitMQ and Redis started from the
// machine's own binaries, on loopback, their data under `.local/<profile>/`. Used by `npm start`
// (profile "dev"), `npm test` and Jest's global setup (profile "test", other ports, other data).
import { mkdirSync, rmSync } from 'node:fs';
import { dataDir, pidFile, PORTS, type Profile, type ServerName } from './profiles.ts';
import { ensureInstalled, InfraError, portIsOpen, readPid, stopPid } from './processes.ts';
import { startPostgres } from './postgres.ts';
import { startRabbit } from './rabbitmq.ts';
import { startRedis } from './redis.ts';

export { PORTS, dataDir, repoRoot, urls, type Profile, type ProfilePorts, type ServerName } from './profiles.ts';
export { InfraError, freePort, pidAlive, portIsOpen, tail, waitFor } from './processes.ts';
export { startFaultRabbit, startFaultRedis, type RabbitInstance, type RedisInstance } from './faults.ts';

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
      // a server of ours that is alive gets longer to answer the probe: at load 20 a 500 ms probe of the running
      // test PostgreSQL timed out, and the step (Jest's global setup) failed starting it a second time
      if (await portIsOpen(port, '127.0.0.1', ours ? 5000 : 500)) {
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
