// PostgreSQL of a profile, from the machine's binaries.
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { dataDir, PORTS, type Profile } from './profiles.ts';
import { InfraError, PG_BIN, isRoot, tail } from './processes.ts';

function asPostgresUser(cmd: string, args: string[]): [string, string[]] {
  return isRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
}

export async function startPostgres(profile: Profile): Promise<void> {
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
