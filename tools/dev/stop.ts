// `npm run stop`: stops a running `npm start` (its services) and the dev infrastructure, by pid.
import { existsSync, readFileSync } from 'node:fs';
import { dataDir, pidAlive, stopInfra } from '@academy/infra';

const runFile = dataDir('dev', 'start.pid');
const pid = existsSync(runFile) ? Number(readFileSync(runFile, 'utf8')) : 0;
if (pid && pidAlive(pid)) {
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 30_000;
  while (pidAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  console.log(`stopped npm start (pid ${pid}) and its services`);
}
const stopped = await stopInfra('dev');
console.log(stopped.length ? `stopped ${stopped.join(', ')}` : 'no dev infrastructure was running');
