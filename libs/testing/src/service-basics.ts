// Component tests every service passes: readiness of its own dependencies, its first migration,
// fail-fast configuration and a clean SIGTERM (the last two, `describeProcessBasics`, the gateway too). A separate entry point (`@academy/testing/service-basics`)
// because it imports Jest, which scripts that use `@academy/testing` must not load.
import { createHook } from 'node:async_hooks';
import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { generateKeyPairFiles } from '@academy/auth';
import type { BaseConfig, ServiceDefinition } from '@academy/service';
import { startTestService, useService } from './harness.ts';
import { createTestDatabase, dropTestDatabase, testConfig, testUrls, TEST_KEYS_DIR, TEST_KID } from './index.ts';

export interface ServiceBasics<C extends BaseConfig> {
  definition: ServiceDefinition<C>;
  /** The service's own configuration with its defaults (the test overrides the shared variables). */
  readConfig: () => C;
  /** Path of its entry point, from the repository root. */
  main: string;
  /** Names of the /readyz checks, sorted. */
  readiness: string[];
}

/** A timer (`setTimeout` or `setInterval`, ref'd or unref'd) and where it was started. */
interface StartedTimer {
  resource: { _destroyed?: boolean };
  where: string;
}

/**
 * The timers `work` starts and leaves running, each named with the stack that started it. Seen through
 * async_hooks: `process.getActiveResourcesInfo()` lists only what keeps the event loop alive, so an
 * `unref()`'d interval (the usual background timer) would pass unseen. A `setImmediate` is not one: it
 * runs once on the next turn (nodemailer's pool schedules one as it is made).
 */
export function timersLeftBy<T>(work: () => T): { result: T; timers: string[] } {
  const started: StartedTimer[] = [];
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type !== 'Timeout') return;
      const frames = (new Error().stack ?? '').split('\n').map((line) => line.trim());
      const where = frames.filter((line) => /\/(apps|libs)\//.test(line) && !line.includes('service-basics')).slice(0, 3).join(' <- ');
      started.push({ resource: resource as StartedTimer['resource'], where: `a timer ${where || 'started outside apps/ and libs/'}` });
    },
  });
  hook.enable();
  try {
    const result = work();
    return { result, timers: started.filter((timer) => !timer.resource._destroyed).map((timer) => timer.where) };
  } finally {
    hook.disable();
  }
}

export function describeServiceBasics<C extends BaseConfig>({ definition, readConfig, main, readiness }: ServiceBasics<C>): void {
  const name = definition.name;
  describe(`${name} service`, () => {
    // What `setup` (the service's context factory) left running when it returned: it should start nothing,
    // its timers start from `listening` (a context built in a test, a script or a failed start leaks none).
    const timersOfSetup: string[] = [];
    const watched: ServiceDefinition<C> = {
      ...definition,
      setup: (ctx) => {
        const { result, timers } = timersLeftBy(() => definition.setup(ctx));
        timersOfSetup.push(...timers);
        return result;
      },
    };
    // Stopped without stopTestService's clean-up: the service's default queue names and files folder are not the test's own.
    const service = useService(
      async () => startTestService(watched, { ...readConfig(), ...(await testConfig(name)) }),
      async (running) => {
        await running.stop();
        await dropTestDatabase(running.ctx.config.DATABASE_URL);
      },
    );

    test(`GET /readyz reports ${readiness.join(', ')}`, async () => {
      const res = await request(service().url).get('/readyz');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.checks).sort()).toEqual(readiness);
    });

    test('building its context (setup) starts no timer: they start once it listens, and stop with it', () => {
      service(); // started: its setup ran
      expect(timersOfSetup).toEqual([]);
    });

    test('the initial migration created the outbox and inbox tables', async () => {
      const rows = await service().ctx.orm.em
        .fork()
        .getConnection()
        .execute<{ table_name: string }[]>("select table_name from information_schema.tables where table_schema = 'public' and table_name in ('outbox', 'inbox') order by table_name");
      expect(rows.map((r) => r.table_name)).toEqual(['inbox', 'outbox']);
    });

    let database = '';
    describeProcessBasics({
      name,
      main,
      invalidEnv: { PORT: 'not-a-port', DATABASE_URL: 'nope' },
      env: async () => {
        database = await createTestDatabase(`${name}_sigterm`);
        return { DATABASE_URL: database, RABBITMQ_URL: testUrls.rabbitmq };
      },
      cleanUp: () => dropTestDatabase(database),
    });
  });
}

export interface ProcessBasics {
  /** As it logs `<name> listening`. */
  name: string;
  /** Path of its entry point, from the repository root. */
  main: string;
  /** Variables that must each stop the start, named in its error. */
  invalidEnv: Record<string, string>;
  /** What the process needs to start on the test servers, beyond port 0, the test Redis and the test keys. */
  env?: () => Promise<Record<string, string>>;
  cleanUp?: () => Promise<void>;
}

/** The process-level start-up tests of a service or the gateway: fail-fast configuration and a clean SIGTERM. */
export function describeProcessBasics({ name, main, invalidEnv, env, cleanUp }: ProcessBasics): void {
  test('a bad environment variable stops the start, naming it', () => {
    // A loaded machine (CI, parallel suites) can take many seconds to load a process: bounded, generously.
    const result = spawnSync(process.execPath, [main], { env: { ...process.env, ...invalidEnv }, encoding: 'utf8', timeout: 45_000 });
    expect(result.status).toBe(1);
    for (const variable of Object.keys(invalidEnv)) expect(result.stderr).toMatch(new RegExp(`${variable} is invalid`));
  }, 60_000);

  test('SIGTERM stops a running process cleanly (exit 0) after it logged "stopped"', async () => {
    generateKeyPairFiles(TEST_KEYS_DIR, TEST_KID);
    const child = spawn(process.execPath, [main], {
      env: { ...process.env, PORT: '0', REDIS_URL: testUrls.redis, JWT_KEYS_DIR: TEST_KEYS_DIR, JWT_KEY_IDS: TEST_KID, LOG_LEVEL: 'info', ...(await env?.()) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    let exited = false;
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (errors += chunk));
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => ((exited = true), resolve(code))));
    try {
      // Bounded and generous (a loaded machine starts a process slowly); a process that died stops the wait at once.
      const deadline = Date.now() + 45_000;
      while (!output.includes(`${name} listening`) && !exited && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      // On failure the message shows what the process wrote to stderr (a crash at start).
      expect({ listening: output.includes(`${name} listening`), errors }).toMatchObject({ listening: true });
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
      expect(output).toContain('"msg":"stopped"');
    } finally {
      // A process still starting when the wait gave up kept Jest, and so CI, from ever exiting.
      if (!exited) child.kill('SIGKILL');
      await cleanUp?.();
    }
  }, 60_000);
}
