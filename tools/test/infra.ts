// `node tools/test/infra.ts start|stop|stop --all`: the test PostgreSQL, RabbitMQ and Redis for a whole CI run
// (.ci/run). `start` starts whichever is not running and writes the names of those it started to
// .local/test/ci-started; `stop` stops those, and only those. `stop --all` stops every test server whose process
// id is recorded under .local/test, whoever started it: a Jest or Playwright global setup starts the servers it
// finds missing and leaves them running for the next run, and a developer stops them this way. Started once before the steps that run at once, so that no two of them
// race to start the same server (each step's own ensureInfra then reuses them and stops nothing).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dataDir, ensureInfra, stopInfra, type ServerName } from '@academy/infra';

const record = dataDir('test', 'ci-started');
const command = process.argv[2];

if (command === 'start') {
  const { started, reused } = await ensureInfra('test', (line) => console.log(`[test infra] ${line}`));
  writeFileSync(record, JSON.stringify(started));
  console.log(`[test infra] started: ${started.join(', ') || 'none'}; reused: ${reused.join(', ') || 'none'}`);
} else if (command === 'stop' && process.argv[3] === '--all') {
  const stopped = await stopInfra('test');
  rmSync(record, { force: true });
  console.log(`[test infra] stopped: ${stopped.join(', ') || 'none'}`);
} else if (command === 'stop') {
  const started = existsSync(record) ? (JSON.parse(readFileSync(record, 'utf8')) as ServerName[]) : [];
  if (started.length) await stopInfra('test', started);
  rmSync(record, { force: true });
  console.log(`[test infra] stopped: ${started.join(', ') || 'none'}`);
} else {
  console.error('usage: node tools/test/infra.ts start|stop|stop --all');
  process.exit(2);
}
