// The one harness of the services' component tests: a service in-process on port 0 over the test
// servers, and what its test configuration created removed after it. A separate entry point
// (`@academy/testing/harness`) because `useService` imports Jest.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll } from '@jest/globals';
import { startService, type BaseConfig, type RunningService, type ServiceDefinition, type StartOptions } from '@academy/service';
import { deleteTestQueues, dropTestDatabase, testConfigOn, type SettingsSchema } from './index.ts';
import { cloneMigratedDatabase, createMigratedTestDatabase } from './template-database.ts';

/**
 * `testConfig(name, settings?)` whose database is already a copy of the service's migrated template: one CREATE
 * DATABASE, where `testConfig`'s empty database is replaced by the copy at start (two). `startTestService` then
 * starts it as it is (its migrations find none pending).
 */
export async function serviceTestConfig<C extends BaseConfig, D>(definition: ServiceDefinition<C, D>, name: string): Promise<BaseConfig>;
export async function serviceTestConfig<C extends BaseConfig, D, S extends object>(definition: ServiceDefinition<C, D>, name: string, settings: SettingsSchema<S>): Promise<BaseConfig & S>;
export async function serviceTestConfig<C extends BaseConfig, D>(definition: ServiceDefinition<C, D>, name: string, settings?: SettingsSchema<object>): Promise<BaseConfig> {
  return testConfigOn(await createMigratedTestDatabase(definition as ServiceDefinition, name), settings as SettingsSchema<object>);
}

/**
 * Starts the service and waits for its broker: queues are bound before a test publishes, and a broker still connecting when the service stops would keep Jest alive.
 * Its still-empty database is first cloned from the service's migrated template (template-database.ts).
 */
export async function startTestService<C extends BaseConfig, D>(definition: ServiceDefinition<C, D>, config: C, options: StartOptions = {}): Promise<RunningService<C, D>> {
  await cloneMigratedDatabase(definition as ServiceDefinition, config);
  const service = await startService(definition, config, options);
  try {
    await service.ctx.broker.start();
  } catch (error) {
    // The service is up: a failed broker start must not leave it running (and Jest waiting for it).
    await service.stop();
    throw error;
  }
  return service;
}

/**
 * Stops the service, then removes what its test configuration created on the shared test servers:
 * its database, its exchange with every `*_QUEUE` of its config (their retry queues and DLQs too),
 * and its `FILES_DIR`. `keepDatabase` when another instance of the same deployment still runs.
 */
export async function stopTestService(service: RunningService, options: { keepDatabase?: boolean } = {}): Promise<void> {
  await service.stop();
  if (options.keepDatabase) return;
  const config: BaseConfig & Record<string, unknown> = service.ctx.config;
  await dropTestDatabase(config.DATABASE_URL);
  if (typeof config.FILES_DIR === 'string') rmSync(config.FILES_DIR, { recursive: true, force: true });
  const queues = Object.entries(config).flatMap(([name, value]) => (name.endsWith('_QUEUE') && typeof value === 'string' ? [value] : []));
  await deleteTestQueues(config.EVENTS_EXCHANGE, queues);
}

/** How long a service may take to start or stop in a test's hooks: a start is not what the tests assert, and at load it takes tens of seconds. */
const SERVICE_HOOK_TIMEOUT_MS = 120_000;

/**
 * A service started once and stopped once, even when the stop is asked for while the start still runs.
 * A start that outlived its hook's timeout (load) finished after `afterAll` had found nothing to stop,
 * and the running service (its pool, relay, broker and Redis) kept Jest, and so CI, from ever exiting.
 */
export function serviceSlot<S>(start: () => Promise<S>, stop: (service: S) => Promise<void>) {
  let starting: Promise<S> | undefined;
  let service: S | undefined;
  return {
    async begin(): Promise<S> {
      starting = start();
      service = await starting;
      return service;
    },
    current: (): S | undefined => service,
    async end(): Promise<void> {
      const pending = starting;
      starting = undefined;
      service = undefined;
      // A start that failed left nothing running to stop.
      const started = pending ? await pending.catch(() => undefined) : undefined;
      if (started) await stop(started);
    },
  };
}

/**
 * Starts a service before the tests of the enclosing `describe` and stops it after them (by default
 * with `stopTestService`), also when its start outlives the hook; returns a getter for it.
 */
export function useService<S extends RunningService>(start: () => Promise<S>, stop: (service: S) => Promise<void> = stopTestService): () => S {
  const slot = serviceSlot(start, stop);
  beforeAll(() => slot.begin(), SERVICE_HOOK_TIMEOUT_MS);
  afterAll(() => slot.end(), SERVICE_HOOK_TIMEOUT_MS);
  return () => {
    const service = slot.current();
    if (!service) throw new Error('the service is not started: useService starts it around the tests of its describe only');
    return service;
  };
}
