import { describe, expect, test } from '@jest/globals';
import pg from 'pg';
import request from 'supertest';
import { dropTestDatabase, testConfig } from '@academy/testing';
import { startService, type ServiceDefinition } from '../src/index.ts';

describe('startService', () => {
  test('boots database, broker and HTTP, and stop() releases the port and finishes in-flight requests', async () => {
    let release: () => void = () => {};
    const definition: ServiceDefinition = {
      name: 'probe',
      entities: [],
      migrations: [],
      setup: () => ({
        routes: (app) => {
          app.get('/slow', async (_req, res) => {
            await new Promise<void>((resolve) => (release = resolve));
            res.json({ finished: true });
          });
        },
      }),
    };
    const config = await testConfig('service_probe');
    const service = await startService(definition, config);
    await service.ctx.broker.start();
    expect((await request(service.url).get('/readyz')).status).toBe(200);

    const inFlight = request(service.url).get('/slow').then((res) => res.body);
    await new Promise((r) => setTimeout(r, 100));
    const stopped = service.stop();
    release();
    expect(await inFlight).toEqual({ finished: true });
    await stopped;
    await expect(fetch(`${service.url}/healthz`)).rejects.toThrow();
    await dropTestDatabase(config.DATABASE_URL);
  });
});

describe('startService when a start-up step fails', () => {
  test('rejects with the cause and closes its database connections again', async () => {
    const config = await testConfig('service_failing');
    const definition: ServiceDefinition = {
      name: 'failing',
      entities: [],
      migrations: [],
      setup: () => ({
        routes: () => {},
        subscriptions: async () => {
          throw new Error('cannot subscribe');
        },
      }),
    };
    await expect(startService(definition, config)).rejects.toThrow('cannot subscribe');
    const database = new URL(config.DATABASE_URL).pathname.slice(1);
    const admin = new pg.Client({ connectionString: config.DATABASE_URL.replace(/\/[^/]+$/, '/postgres') });
    await admin.connect();
    const { rows } = await admin.query('select count(*)::int as n from pg_stat_activity where datname = $1', [database]);
    await admin.end();
    expect(rows[0].n).toBe(0);
    await dropTestDatabase(config.DATABASE_URL);
  });

  test('beforeClose runs at stop while the server still listens, so long-lived connections end before it closes', async () => {
    const seen: boolean[] = [];
    const definition: ServiceDefinition = {
      name: 'probe',
      entities: [],
      migrations: [],
      setup: () => ({
        routes: () => {},
        beforeClose: () => {
          seen.push(service.server.listening);
        },
      }),
    };
    const config = await testConfig('service_before_close');
    const service = await startService(definition, config);
    await service.stop();
    expect([seen, service.server.listening]).toEqual([[true], false]);
    await dropTestDatabase(config.DATABASE_URL);
  });
});

describe('ServiceDefinition.setup', () => {
  test('runs once per started instance: two instances of one definition get their own deps, and each stop ends its own', async () => {
    const stopped: number[] = [];
    let instances = 0;
    const definition: ServiceDefinition<Awaited<ReturnType<typeof testConfig>>, { instance: number }> = {
      name: 'probe',
      entities: [],
      migrations: [],
      setup: () => {
        const deps = { instance: ++instances };
        return { deps, routes: (app) => app.get('/instance', (_req, res) => res.json(deps)), stop: () => void stopped.push(deps.instance) };
      },
    };
    const config = await testConfig('service_setup');
    const first = await startService(definition, config);
    const second = await startService(definition, config);
    expect([(await request(first.url).get('/instance')).body, (await request(second.url).get('/instance')).body]).toEqual([{ instance: 1 }, { instance: 2 }]);
    expect([first.deps, second.deps]).toEqual([{ instance: 1 }, { instance: 2 }]);
    await second.stop();
    expect(stopped).toEqual([2]);
    await first.stop();
    expect(stopped).toEqual([2, 1]);
    await dropTestDatabase(config.DATABASE_URL);
  });
});

describe("the service's Redis client", () => {
  test('fails a command after REDIS_COMMAND_TIMEOUT_MS: 100 ms by default, what the configuration says otherwise', async () => {
    const definition: ServiceDefinition = { name: 'probe', entities: [], migrations: [], setup: () => ({ routes: () => {} }) };
    const config = await testConfig('service_redis_timeout');
    const byDefault = await startService(definition, config);
    const patient = await startService(definition, { ...config, REDIS_COMMAND_TIMEOUT_MS: 2500 });
    try {
      expect([byDefault.ctx.redis.options.commandTimeout, patient.ctx.redis.options.commandTimeout]).toEqual([100, 2500]);
    } finally {
      await patient.stop();
      await byDefault.stop();
      await dropTestDatabase(config.DATABASE_URL);
    }
  });
});
