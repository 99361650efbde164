// Redis of a profile, from the machine's binary.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dataDir, pidFile, PORTS, type Profile } from './profiles.ts';
import { InfraError, REDIS_BIN, pidAlive, portIsOpen, spawnDetached, tail, waitFor } from './processes.ts';

/**
 * Redis always runs on the real clock: Debian's redis-server links jemalloc, which hangs under libfaketime
 * (wolfcw/libfaketime#130, `npm run test:clocks`); every key's expiry is relative (EX/PX), so its clock never meets ours.
 */
export function redisEnv(): NodeJS.ProcessEnv {
  const { LD_PRELOAD, ...env } = process.env;
  return LD_PRELOAD?.includes('faketime') ? env : process.env;
}

export async function startRedis(profile: Profile): Promise<void> {
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
