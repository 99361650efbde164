// `npm start`: the whole system on this machine, without a Docker engine.
// Infrastructure (PostgreSQL, RabbitMQ, Redis) from the machine's binaries, a mail catcher, the
// databases, the five services (each migrates its database at start), demo data once. A service
// (or the mail catcher) that exits is started again after a backoff (tools/dev/supervisor.ts).
// Ctrl-C stops what this run started, by pid, for good. `npm run stop` stops the infrastructure too.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateKeyPairFiles } from '@academy/auth';
import { ensureDatabase } from '@academy/db';
import { dataDir, ensureInfra, pidAlive, portIsOpen, repoRoot, stopInfra, tail, urls, type ServerName } from '@academy/infra';
import { DEMO_LOGINS } from '../../apps/academic/src/demo-logins.ts';
import { DEV_KEYS_DIR, DEV_KID, SERVICES, MAIL } from './system.ts';
import { spawnLogged, spawnMailCatcher, spawnService, stopChild, waitAllReady, type LoggedChild } from './processes.ts';
import { Supervisor } from './supervisor.ts';
import { buildConsole } from './console.ts';
import { telemetryEnv, startDevReceiver, stopDevReceiver } from './tracing.ts';

const startedAt = Date.now();
const log = (line: string) => console.log(`[start] ${line}`);
const runFile = dataDir('dev', 'start.pid');

const previous = existsSync(runFile) ? Number(readFileSync(runFile, 'utf8')) : 0;
if (previous && pidAlive(previous)) {
  console.log(`The system is already running (npm start, pid ${previous}): gateway http://127.0.0.1:${SERVICES[0].port}`);
  console.log('Stop it with Ctrl-C in its terminal or `npm run stop`.');
  process.exit(0);
}
mkdirSync(dataDir('dev', 'logs'), { recursive: true });
writeFileSync(runFile, String(process.pid));

const supervised = new Map<string, Supervisor>();
let seed: LoggedChild | null = null;
let infraStarted: ServerName[] = [];
let stopping = false;

async function stopAll(code: number): Promise<never> {
  if (stopping) process.exit(code);
  stopping = true;
  log('stopping…');
  await Promise.all([...[...supervised.values()].map((supervisor) => supervisor.stop()), seed && stopChild(seed.child)]);
  await stopDevReceiver();
  if (infraStarted.length) await stopInfra('dev', infraStarted);
  rmSync(runFile, { force: true });
  log(`stopped${infraStarted.length ? ` (and ${infraStarted.join(', ')})` : ''}`);
  process.exit(code);
}
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

function fail(message: string): Promise<never> {
  console.error(`[start] ERROR: ${message}`);
  return stopAll(1);
}

/**
 * Starts a long-lived process under supervision: an exit is reported with the end of its log and
 * the process comes back after the backoff (during the start, an exit fails the start instead).
 */
function supervise(name: string, spawn: () => LoggedChild): void {
  const supervisor = new Supervisor({
    spawn,
    report: (line, exited) => {
      console.error(`[start] ${line}\n  last lines of ${path.relative(repoRoot, exited.logFile)}:\n${tail(exited.logFile)}`);
    },
  });
  supervised.set(name, supervisor);
  supervisor.start();
}
const logFileOf = (name: string) => dataDir('dev', 'logs', `${name}.log`);

try {
  if (generateKeyPairFiles(DEV_KEYS_DIR, DEV_KID)) log(`generated dev signing keys in ${path.relative(repoRoot, DEV_KEYS_DIR)}/`);

  for (const port of [...SERVICES.map((s) => s.port), MAIL.smtpPort, MAIL.webPort]) {
    if (await portIsOpen(port)) await fail(`port ${port} is already in use; stop whatever holds it (ss -ltnp 'sport = :${port}') and run again`);
  }

  log('building the console (apps/console)…');
  buildConsole();

  const infra = await ensureInfra('dev', log);
  infraStarted = infra.started;
  if (infra.reused.length) log(`reusing ${infra.reused.join(', ')} from an earlier start`);

  supervise('maildev', () => spawnMailCatcher(MAIL, { logFile: logFileOf('maildev') }));

  const pg = urls('dev').postgres;
  for (const service of SERVICES) if (service.database) await ensureDatabase(`${pg}/${service.database}`);

  const env = { JWT_KEYS_DIR: DEV_KEYS_DIR, JWT_KEY_IDS: DEV_KID };
  // Traces: every service exports to the local OTLP receiver (`npm run trace -- <request id>`), unless
  // OTEL_EXPORTER_OTLP_ENDPOINT names another collector or OTEL_SDK_DISABLED=true turns tracing off.
  const tracing = await startDevReceiver(log);
  for (const service of SERVICES) {
    supervise(service.name, () => spawnService(service.name, { logFile: logFileOf(service.name), env: { ...env, ...telemetryEnv(service.name, tracing) } }));
  }

  await waitAllReady(
    [...SERVICES.map((s) => ({ name: s.name, url: `http://127.0.0.1:${s.port}/readyz` })), { name: 'maildev', url: `http://127.0.0.1:${MAIL.webPort}/` }].map((entry) => ({
      ...entry,
      process: supervised.get(entry.name),
    })),
    // START_READY_SECONDS: how long every process may take to answer ready (90 s; more on a loaded machine)
    Number(process.env.START_READY_SECONDS ?? '90') * 1000,
  );

  // Academic's people first: payslips' seed waits for them to reach its replica.
  for (const [name, script] of [['seed', 'apps/academic/src/seed.ts'], ['seed-payslips', 'apps/payslips/src/seed.ts']] as const) {
    const seedScript = path.join(repoRoot, script);
    if (!existsSync(seedScript)) continue;
    const seeding = (seed = spawnLogged(name, process.execPath, [seedScript], { logFile: logFileOf(name), env }));
    const code = await new Promise<number | null>((resolve) => seeding.child.once('exit', resolve));
    if (code !== 0) await fail(`seeding demo data failed; see .local/dev/logs/${name}.log`);
  }

  const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
  console.log(`
Academy backend is up (ready in ${seconds} s).

  Console        http://127.0.0.1:${SERVICES[0].port}/     the staff's web console (npx nx serve console: Vite with hot reload on :5173)
  Gateway        http://127.0.0.1:${SERVICES[0].port}      API under /api/v2, docs at /api/docs
  Readiness      http://127.0.0.1:${SERVICES[0].port}/readyz
  Mail catcher   http://127.0.0.1:${MAIL.webPort}      (SMTP on 127.0.0.1:${MAIL.smtpPort})
  RabbitMQ UI    ${urls('dev').rabbitmqManagement}     (guest / guest)
  Logs           .local/dev/logs/<service>.log
  Traces         npm run trace -- <request id | trace id>   (spans in .local/dev/traces/spans.jsonl)

Demo logins (POST /api/v2/auth/login):
${DEMO_LOGINS.filter((l, i) => DEMO_LOGINS.findIndex((first) => first.role === l.role) === i)
  .map((l) => `  ${l.role.padEnd(6)} ${l.email.padEnd(28)} ${l.password}`)
  .join('\n')}

A service that exits is started again (after 1 s, doubling up to 30 s) and the end of its log shown here.
Ctrl-C stops the services${infraStarted.length ? ' and the infrastructure started now' : ''}; \`npm run stop\` stops the infrastructure.`);
} catch (error) {
  await fail((error as Error).message);
}
