import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import amqp from 'amqplib';
import request from 'supertest';
import { generateKeyPairFiles } from '@academy/auth';
import { createOrm, dropDatabase, ensureDatabase } from '@academy/db';
import { dataDir, urls } from '@academy/infra';
import { consume, messagingEntities, recordEvent } from '@academy/messaging';
import { startService, type BaseConfig, type ServiceDefinition } from '../src/index.ts';

const servers = urls('test');
const keysDir = dataDir('test', 'keys');

/** A service of its own (database, exchange, queue) whose one handler takes 500 ms: a test may stop it without leaving another without its service. */
async function startBackbone() {
  const suffix = randomBytes(4).toString('hex');
  const queue = `svc-${suffix}.shutdown`;
  const handled: string[] = [];
  const counts = { started: 0 };
  generateKeyPairFiles(keysDir, 'test-1');
  const config: BaseConfig = {
    PORT: 0,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATABASE_URL: `${servers.postgres}/t_service_${suffix}`,
    DATABASE_POOL_MAX: 10,
    DATABASE_ACQUIRE_TIMEOUT_MS: 30_000,
    RABBITMQ_URL: servers.rabbitmq,
    EVENTS_EXCHANGE: `academy.events.test.${suffix}`,
    REDIS_URL: servers.redis,
    REDIS_COMMAND_TIMEOUT_MS: 100,
    JWT_KEYS_DIR: keysDir,
    JWT_KEY_IDS: ['test-1'],
    JWT_ISSUER: 'academy',
    JWT_AUDIENCE: 'academy-api',
    BODY_LIMIT: '100kb',
    IDEMPOTENCY_TTL_HOURS: 24,
  };
  // The outbox and inbox come with each service's migrations; this test service has none.
  await ensureDatabase(config.DATABASE_URL);
  const orm = await createOrm({ clientUrl: config.DATABASE_URL, entities: messagingEntities, migrations: [] });
  await orm.schema.create();
  await orm.close();
  const definition: ServiceDefinition = {
    name: `svc-${suffix}`,
    entities: [],
    migrations: [],
    setup: (ctx) => ({
      routes: () => undefined,
      subscriptions: async () => {
        await consume(ctx.broker, {
          orm: ctx.orm,
          queue,
          handlers: {
            'employee.deleted': async (_em, event) => {
              counts.started++;
              await new Promise((resolve) => setTimeout(resolve, 500));
              handled.push(event.id);
            },
          },
        });
      },
    }),
  };
  const service = await startService(definition, config);
  await service.ctx.broker.start();
  /** Stops the service (again: nothing) and removes its database, queues and exchange. */
  const remove = async () => {
    await service.stop();
    await dropDatabase(config.DATABASE_URL);
    const connection = await amqp.connect(servers.rabbitmq);
    const channel = await connection.createChannel();
    for (const name of [queue, `${queue}.dlq`, `${queue}.retry.1000ms`, `${queue}.retry.5000ms`, `${queue}.retry.30000ms`]) await channel.deleteQueue(name);
    await channel.deleteExchange(config.EVENTS_EXCHANGE);
    await connection.close();
  };
  return { config, queue, service, handled, counts, remove };
}

describe('startService and the event backbone', () => {
  let backbone: Awaited<ReturnType<typeof startBackbone>>;

  beforeEach(async () => {
    backbone = await startBackbone();
  });
  afterEach(async () => {
    await backbone.remove();
  });

  test('/metrics exposes the messaging metrics on the service registry', async () => {
    const res = await request(backbone.service.url).get('/metrics');
    expect(res.status).toBe(200);
    for (const name of ['messaging_outbox_backlog', 'messaging_published_total', 'messaging_consumed_total', 'messaging_retried_total', 'messaging_dead_lettered_total']) {
      expect(res.text).toContain(`# TYPE ${name}`);
    }
  });

  test('stop() lets an in-flight handler finish and commit before closing', async () => {
    const { config, queue, service, handled, counts } = backbone;
    const em = service.ctx.orm.em.fork();
    const { id } = recordEvent(em, 'employee.deleted', { id: 1 }, { source: 'test' });
    await em.flush();
    const deadline = Date.now() + 10_000;
    while (counts.started === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(counts.started).toBe(1);
    await service.stop();
    expect(handled).toEqual([id]);
    const orm = await createOrm({ clientUrl: config.DATABASE_URL, entities: messagingEntities, migrations: [] });
    try {
      const rows = await orm.em.getConnection().execute<{ event_id: string }[]>(`select event_id from inbox`);
      expect(rows.map((row) => row.event_id)).toEqual([id]);
    } finally {
      await orm.close();
    }
    const connectionCheck = await amqp.connect(servers.rabbitmq);
    const channel = await connectionCheck.createChannel();
    expect((await channel.checkQueue(queue)).messageCount).toBe(0); // acked, not left for redelivery
    await connectionCheck.close();
  });
});
