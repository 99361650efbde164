// The whole system started as `npm start` starts it (tools/dev/processes.ts: the same processes,
// the same entry points, readiness by /readyz, the same supervision that restarts a crashed process
// with a backoff, the same seed), but for a test run: the test
// PostgreSQL and Redis (fresh databases with unique names, a Redis database of the profile's own,
// unique key prefixes), a RabbitMQ of its own (it is restarted during the run, and the shared test
// broker must not be), every service and a mail catcher on free ports, a throwaway data folder.
//
// With `instances: 2` every service runs twice and there are two gateways: gateway i proxies to
// instance set i (in Kubernetes a Service spreads the load; here each gateway has its own set). The
// instances share the databases, the broker (competing consumers on the same queues) and Redis.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { generateKeyPairFiles } from '@academy/auth';
import { dropDatabase } from '@academy/db';
import { freePort, repoRoot, startFaultRabbit, tail, urls, waitFor, type RabbitInstance } from '@academy/infra';
import { spawnLogged, spawnMailCatcher, spawnService, waitAllReady } from '../dev/processes.ts';
import { Supervisor } from '../dev/supervisor.ts';
import { SERVICES } from '../dev/system.ts';

/**
 * How long a process may take to answer ready: its default, scaled by `SYSTEM_READY_FACTOR` (e.g. 3 on a
 * machine shared with other load, where a cold start of every service at once takes minutes).
 */
function readyMs(defaultMs: number): number {
  const factor = Number(process.env.SYSTEM_READY_FACTOR ?? '1');
  return Number.isFinite(factor) && factor > 0 ? Math.round(defaultMs * factor) : defaultMs;
}

export type BackendName = 'academic' | 'hours-bank' | 'incidents' | 'notifications' | 'payslips';
export const BACKENDS: BackendName[] = SERVICES.filter((s) => s.database).map((s) => s.name as BackendName);
const DATABASE_OF = Object.fromEntries(SERVICES.filter((s) => s.database).map((s) => [s.name, s.database])) as Record<BackendName, string>;

export const PUSH_API_KEY = 'system-test-push-api-key';
export const DEMO = {
  admin: { email: 'admin@academy.local', password: 'admin1234' },
  admin2: { email: 'admin2@academy.local', password: 'admin1234' },
  teacher: (n: number) => ({ email: `teacher${n}@academy.local`, password: 'teacher1234' }),
};

export interface SystemOptions {
  /** Names the run's databases, broker folder and data folder. */
  name: string;
  /** Instances of each service, and as many gateways. */
  instances?: 1 | 2;
  /** Redis logical database of this profile (the shared test Redis: keys of other tests never meet ours). */
  redisDb: number;
  /** The services to start (default all); the gateway's routes to the others answer 503. */
  backends?: BackendName[];
  /** Seed the demo academy as `npm start` does (default: when academic runs). */
  seed?: boolean;
  /** Extra variables per process (`all` for every one). */
  env?: Partial<Record<BackendName | 'gateway' | 'all', Record<string, string>>>;
  log?: (line: string) => void;
  /**
   * Where each process runs from (default this checkout): another checkout's root, e.g. a worktree
   * of an app's last release (`npm run test:compat`). Also read from SYSTEM_APP_ROOTS (JSON).
   */
  roots?: Partial<Record<BackendName | 'gateway', string>>;
  /**
   * Services whose database gets this checkout's migrations before the service starts from its
   * root: the release's code on the next release's schema (expand/contract). Also SYSTEM_MIGRATE_AT_HEAD (comma-separated).
   */
  migrateAtHead?: BackendName[];
}

/** One running process of the system (a service instance or a gateway), which a test may kill and start again. */
export interface SystemProcess {
  name: BackendName | 'gateway';
  instance: number;
  port: number;
  url: string;
  readonly running: boolean;
  readonly pid: number | undefined;
  /** Stops it with SIGKILL (a pod deleted) or SIGTERM (a rolling update), for good until start(); resolves once the process is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Signals it from outside (SIGKILL: a crash), as its supervisor did not ask; resolves once the process is gone, and the supervisor starts it again. */
  crash(signal?: NodeJS.Signals): Promise<void>;
  /** Times its supervisor started it again after it exited by itself. */
  readonly restarts: number;
  /** Starts it again on the same port (now, if a restart is pending) and waits for its /readyz. */
  start(): Promise<void>;
  /** Where its output goes. */
  readonly logFile: string;
}

export interface TestSystem {
  id: string;
  dir: string;
  gateways: string[];
  /** The first gateway. */
  gateway: string;
  processes: SystemProcess[];
  process(name: BackendName | 'gateway', instance?: number): SystemProcess;
  /** The last lines of every process's log and of the broker's, for a failing test to print. */
  logTails(lines?: number): string;
  /** Starts one more gateway in front of instance set `set`, with extra variables (e.g. its own rate limits). */
  addGateway(set: number, env?: Record<string, string>): Promise<SystemProcess>;
  mail: { smtpPort: number; api: string };
  rabbit: RabbitInstance;
  databaseUrls: Record<BackendName, string>;
  /** A query against a service's database (assertions only: the journeys go through the gateway). */
  sql<R extends pg.QueryResultRow = Record<string, unknown>>(service: BackendName, text: string, params?: unknown[]): Promise<R[]>;
  redisUrl: string;
  keys: { dir: string; kid: string };
  stop(): Promise<void>;
}

/** Deletes the run's own keys (cache entries, the Socket.IO stream, limit counters) from its Redis database. */
async function dropRedisKeys(url: string, pattern: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      if (keys.length) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** Starts the system; on failure stops whatever it had started and throws with the failing log's tail. */
export async function startTestSystem(options: SystemOptions): Promise<TestSystem> {
  const instances = options.instances ?? 1;
  const roots: Partial<Record<BackendName | 'gateway', string>> = { ...(JSON.parse(process.env.SYSTEM_APP_ROOTS || '{}') as object), ...options.roots };
  const migrateAtHead = options.migrateAtHead ?? ((process.env.SYSTEM_MIGRATE_AT_HEAD || '').split(',').filter(Boolean) as BackendName[]);
  const backends = options.backends ?? BACKENDS;
  const log = options.log ?? (() => {});
  const id = `${options.name.replace(/\W/g, '_')}_${randomBytes(3).toString('hex')}`;
  const dir = mkdtempSync(path.join(os.tmpdir(), `academy-${options.name}-`));
  const test = urls('test');
  const redisUrl = `${test.redis}/${options.redisDb}`;
  const keys = { dir: path.join(dir, 'keys'), kid: `${options.name}-1` };
  generateKeyPairFiles(keys.dir, keys.kid);
  const databaseUrls = Object.fromEntries(BACKENDS.map((s) => [s, `${test.postgres}/t_${id}_${DATABASE_OF[s]}`])) as Record<BackendName, string>;
  const pools = new Map<BackendName, pg.Pool>();
  const procs: (SystemProcess & { stopQuietly(): Promise<void>; readonly supervisor: Supervisor })[] = [];
  let mailCatcher: Supervisor | null = null;
  // freePort() checks a port is free now; ports handed out but not bound yet must not be handed out twice.
  const given = new Set<number>();
  const nextPort = async (): Promise<number> => {
    for (;;) {
      const port = await freePort();
      if (given.has(port)) continue;
      given.add(port);
      return port;
    }
  };
  let rabbit: RabbitInstance | null = null;
  let cloning: Promise<void> = Promise.resolve();
  const began = Date.now();
  const elapsed = () => `${((Date.now() - began) / 1000).toFixed(1)} s after the start`;
  const cloneDatabases = async (targets: string[]) => {
    if (!targets.length) return;
    const clone = spawnLogged('clone-databases', process.execPath, ['tools/system/clone-databases.ts', ...targets], { logFile: path.join(dir, 'clone-databases.log') });
    const code = await new Promise<number | null>((resolve) => clone.child.once('exit', resolve));
    if (code !== 0) throw new Error(`cloning the databases failed:\n${tail(clone.logFile)}`);
  };

  const cleanup = async () => {
    await cloning.catch(() => undefined);
    // Gateways first, then the services (they drain their consumers), then what they use.
    for (const group of [procs.filter((p) => p.name === 'gateway'), procs.filter((p) => p.name !== 'gateway')]) await Promise.all(group.map((p) => p.stopQuietly()));
    if (mailCatcher) await mailCatcher.stop(5000);
    await Promise.all([...pools.values()].map((pool) => pool.end().catch(() => undefined)));
    await rabbit?.destroy().catch(() => undefined);
    for (const url of Object.values(databaseUrls)) await dropDatabase(url).catch(() => undefined);
    await dropRedisKeys(redisUrl, `${id}:*`).catch(() => undefined);
    if (process.env.SYSTEM_KEEP_DIR !== '1') rmSync(dir, { recursive: true, force: true });
  };

  try {
    // The databases of the services that run from this checkout are cloned from their migrated
    // templates (clone-databases.ts) while the broker starts: at load 26 here, the five migrated from
    // nothing at their start took 116 s (PostgreSQL's work, not the services'), cloned 31 s. A
    // service from another checkout (test:compat) migrates its own database, as before.
    const fromHere = backends.filter((service) => !roots[service] && !migrateAtHead.includes(service));
    cloning = cloneDatabases(fromHere.map((service) => `${service}=${databaseUrls[service]}`));
    cloning.catch(() => undefined); // awaited below, and by the cleanup on an earlier failure
    // The broker first: it binds the ports it picks at once, so later picks skip them.
    rabbit = await startFaultRabbit(options.name, { readyMs: readyMs(60_000) });
    const [smtpPort, webPort] = [await nextPort(), await nextPort()];
    log(`broker on ${rabbit.port}, data in ${dir}`);
    mailCatcher = new Supervisor({ spawn: () => spawnMailCatcher({ smtpPort, webPort }, { logFile: path.join(dir, 'maildev.log') }), report: log });
    mailCatcher.start();
    const mailApi = `http://127.0.0.1:${webPort}`;

    const common: Record<string, string> = {
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.SYSTEM_LOG_LEVEL ?? 'warn',
      RABBITMQ_URL: rabbit.url,
      REDIS_URL: redisUrl,
      JWT_KEYS_DIR: keys.dir,
      JWT_KEY_IDS: keys.kid,
      DATABASE_POOL_MAX: '8',
      ...options.env?.all,
    };
    // Each service's export parts in the run's folder (shared by its instances, as a ReadWriteMany volume), never the dev stack's.
    const backendEnv = (service: BackendName, partUrls: Record<string, string> = {}): Record<string, string> => ({
      ...common,
      DATABASE_URL: databaseUrls[service],
      PRIVACY_FILES_DIR: path.join(dir, `${service}-privacy`),
      ...(service === 'academic' ? { PRIVACY_PART_URLS: Object.entries(partUrls).map(([name, url]) => `${name}=${url}`).join(',') } : {}),
      ...(service === 'academic' ? { LOGIN_LIMIT_KEY_PREFIX: `${id}:login` } : {}),
      ...(service === 'incidents' ? { CACHE_KEY_PREFIX: `${id}:incidents`, FILES_DIR: path.join(dir, 'incidents-files') } : {}),
      ...(service === 'payslips' ? { FILES_DIR: path.join(dir, 'payslips-files') } : {}),
      ...(service === 'notifications'
        ? { SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, PUSH_NOTIFICATIONS_API_KEY: PUSH_API_KEY, SOCKET_STREAM: `${id}:socket.io`, SOCKET_STREAM_BLOCK_MS: '1000' }
        : {}),
      ...options.env?.[service],
    });

    // A gateway is ready when every upstream is; with some services left out, it is only alive.
    const readyPath = (name: BackendName | 'gateway') => (name === 'gateway' && backends.length < BACKENDS.length ? '/healthz' : '/readyz');
    const makeProcess = (name: BackendName | 'gateway', instance: number, port: number, env: Record<string, string>) => {
      const url = `http://127.0.0.1:${port}`;
      const logFile = path.join(dir, `${name}-${instance}.log`);
      const supervisor = new Supervisor({
        spawn: () => spawnService(name, { logFile, env: { ...env, PORT: String(port) }, cwd: roots[name] }),
        report: (line) => log(`${line} (instance ${instance})`),
      });
      const proc = {
        name,
        instance,
        port,
        url,
        logFile,
        supervisor,
        get running() {
          return supervisor.running;
        },
        get pid() {
          return supervisor.current?.child.pid;
        },
        get restarts() {
          return supervisor.restarts;
        },
        async kill(signal: NodeJS.Signals = 'SIGKILL') {
          await supervisor.stop(15_000, signal);
        },
        async crash(signal: NodeJS.Signals = 'SIGKILL') {
          const child = supervisor.current?.child;
          if (!child || !supervisor.running) throw new Error(`${name}#${instance} is not running`);
          const gone = new Promise((resolve) => child.once('exit', resolve));
          child.kill(signal);
          await gone;
        },
        async start() {
          if (proc.running) return;
          supervisor.start();
          await waitAllReady([{ name: `${name}#${instance}`, url: `${url}${readyPath(name)}`, process: supervisor }], readyMs(90_000));
        },
        async stopQuietly() {
          await supervisor.stop(10_000);
        },
      };
      procs.push(proc);
      return proc;
    };

    // Instance set 0 first (it migrates the databases), then set 1: two pods migrating at once are
    // the Kubernetes part's concern, not what these profiles test.
    for (const service of migrateAtHead) {
      const migrate = spawnLogged(`${service}-migrate`, process.execPath, [path.join('apps', service, 'src/migrate.ts')], { logFile: path.join(dir, `${service}-migrate.log`), env: backendEnv(service) });
      const code = await new Promise<number | null>((resolve) => migrate.child.once('exit', resolve));
      if (code !== 0) throw new Error(`${service}: this checkout's migrations failed:\n${tail(migrate.logFile)}`);
      log(`${service}: migrated by this checkout, then started from ${roots[service] ?? 'this checkout'}`);
    }
    await cloning;
    log(`databases ready (${elapsed()})`);
    const sets: ReturnType<typeof makeProcess>[][] = [];
    for (let set = 0; set < instances; set++) {
      const started = [];
      // Ports first: academic reads each service's export part from its set's instance (PRIVACY_PART_URLS).
      const ports = new Map<BackendName, number>();
      for (const service of backends) ports.set(service, await nextPort());
      const partUrls = Object.fromEntries(backends.filter((s) => s !== 'academic').map((s) => [s, `http://127.0.0.1:${ports.get(s)}`]));
      for (const service of backends) started.push(makeProcess(service, set, ports.get(service)!, backendEnv(service, partUrls)));
      for (const p of started) p.supervisor.start();
      await waitAllReady(
        [
          ...started.map((p) => ({ name: `${p.name}#${p.instance}`, url: `${p.url}/readyz`, process: p.supervisor })),
          ...(set === 0 ? [{ name: 'maildev', url: `${mailApi}/email`, process: mailCatcher }] : []),
        ],
        readyMs(120_000),
      );
      sets.push(started);
      log(`instance set ${set} ready (${elapsed()})`);
    }
    const unused = await nextPort();
    const gatewayEnv = (set: number, extra: Record<string, string> = {}) => {
      const upstream = (service: BackendName) => sets[set].find((p) => p.name === service)?.url ?? `http://127.0.0.1:${unused}`;
      return {
        ...common,
        ACADEMIC_URL: upstream('academic'),
        HOURS_BANK_URL: upstream('hours-bank'),
        INCIDENTS_URL: upstream('incidents'),
        NOTIFICATIONS_URL: upstream('notifications'),
        PAYSLIPS_URL: upstream('payslips'),
        RATE_LIMIT_KEY_PREFIX: `${id}:rl`,
        ...options.env?.gateway,
        ...extra,
      };
    };
    const gateways = [];
    for (let set = 0; set < instances; set++) gateways.push(makeProcess('gateway', set, await nextPort(), gatewayEnv(set)));
    for (const g of gateways) g.supervisor.start();
    await waitAllReady(gateways.map((g) => ({ name: `gateway#${g.instance}`, url: `${g.url}${readyPath('gateway')}`, process: g.supervisor })), readyMs(60_000));

    if (options.seed ?? backends.includes('academic')) {
      // The demo academy, as `npm start` seeds it.
      const seed = spawnLogged('seed', process.execPath, ['apps/academic/src/seed.ts'], { logFile: path.join(dir, 'seed.log'), env: backendEnv('academic'), cwd: roots.academic ?? repoRoot });
      const code = await new Promise<number | null>((resolve) => seed.child.once('exit', resolve));
      if (code !== 0) throw new Error(`seeding failed:\n${tail(seed.logFile)}`);
    }

    const sql = async <R extends pg.QueryResultRow>(service: BackendName, text: string, params?: unknown[]) => {
      let pool = pools.get(service);
      if (!pool) pools.set(service, (pool = new pg.Pool({ connectionString: databaseUrls[service], max: 3 })));
      return (await pool.query<R>(text, params)).rows;
    };
    // The seeded employees and school courses reach the services that keep replicas of them.
    if (options.seed ?? backends.includes('academic')) await waitFor(
      'employee and school-course replicas',
      async () => {
        const [hb] = await sql<{ e: number; c: number }>('hours-bank', 'select (select count(*) from employees)::int e, (select count(*) from school_courses)::int c');
        const [inc] = await sql<{ e: number }>('incidents', 'select count(*)::int e from employees');
        const [pay] = backends.includes('payslips') ? await sql<{ e: number }>('payslips', 'select count(*)::int e from employees') : [{ e: 7 }];
        return hb.e >= 7 && hb.c >= 2 && inc.e >= 7 && pay!.e >= 7;
      },
      60_000,
    );
    log(`seeded (${elapsed()})`);

    const gatewayUrls = gateways.map((g) => g.url);
    return {
      id,
      dir,
      gateways: gatewayUrls,
      gateway: gatewayUrls[0],
      processes: procs,
      process(name, instance = 0) {
        const found = procs.find((p) => p.name === name && p.instance === instance);
        if (!found) throw new Error(`no ${name}#${instance}`);
        return found;
      },
      logTails(lines = 20) {
        const files = [...procs.map((p) => [`${p.name}#${p.instance}`, p.logFile] as const), ['rabbitmq', path.join(rabbit!.dir, 'rabbitmq.log')] as const];
        return files.map(([name, file]) => `--- ${name}:\n${tail(file, lines)}`).join('\n');
      },
      async addGateway(set, env = {}) {
        const gateway = makeProcess('gateway', 100 + procs.filter((p) => p.name === 'gateway').length, await nextPort(), gatewayEnv(set, env));
        await gateway.start();
        return gateway;
      },
      mail: { smtpPort, api: mailApi },
      rabbit,
      databaseUrls,
      sql,
      redisUrl,
      keys,
      stop: cleanup,
    };
  } catch (error) {
    const logs = procs
      .filter((p) => p.supervisor.exitedSinceStart)
      .map((p) => `--- ${p.name}#${p.instance}:\n${tail(p.logFile)}`)
      .join('\n');
    await cleanup();
    throw new Error(`${(error as Error).message}${logs ? `\n${logs}` : ''}`, { cause: error });
  }
}
