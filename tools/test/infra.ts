// `node tools/test/infra.ts start|stop`: the test PostgreSQL, RabbitMQ and Redis for a whole CI run (.ci/run).
// `start` starts whichever is not running and writes the names of those it started to .local/test/ci-started;
// `stop` stops those, and only those. Started once before the steps that run at once, so that no two of them
// race to start the same server (each step's own ensureInfra then reuses them and stops nothing).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dataDir, ensureInfra, stopInfra, type ServerName } from '@academy/infra';

const record = dataDir('test', 'ci-started');
const command = process.argv[2];

if (command === 'start') {
  const { started, reused } = await ensureInfra('test', (line) => console.log(`[test infra] ${line}`));
  writeFileSync(record, JSON.stringify(started));
  console.log(`[test infra] started: ${started.join(', ') || 'none'}; reused: ${reused.join(', ') || 'none'}`);
} else if (command === 'stop') {
  const started = existsSync(record) ? (JSON.parse(readFileSync(record, 'utf8')) as ServerName[]) : [];
  if (started.length) await stopInfra('test', started);
  rmSync(record, { force: true });
  console.log(`[test infra] stopped: ${started.join(', ') || 'none'}`);
} else {
  console.error('usage: node tools/test/infra.ts start|stop');
  process.exit(2);
}
