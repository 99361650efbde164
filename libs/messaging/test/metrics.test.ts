// The event pipeline's own metrics move when their event happens: the publish → handled delay of a
// handled event, and the depth of a consumer's DLQ as messages are parked and replayed.
import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import { Registry } from 'prom-client';
import { testUrls } from '@academy/testing';
import { consume, createBroker, dlqName, replayDeadLetters, retryQueueName, startOutboxRelay, type Broker, type Consumer, type OutboxRelay } from '../src/index.ts';
import { counts, createMessagingDb, deleteQueues, publishRaw, recordEffect, silentLogger, testTopology, validEnvelope, waitUntil, writeEvents, type TestDb } from './support.ts';

const url = testUrls.rabbitmq;

/** The values of one metric, as prom-client reports them at scrape time (a histogram's with the series name). */
async function valuesOf(registry: Registry, name: string): Promise<{ value: number; labels: Record<string, string | number>; metricName?: string }[]> {
  const values = (await registry.getMetricsAsJSON()).find((metric) => metric.name === name)?.values ?? [];
  return values as { value: number; labels: Record<string, string | number>; metricName?: string }[];
}

describe('event pipeline metrics', () => {
  let db: TestDb;
  let registry: Registry;
  let broker: Broker;
  let relay: OutboxRelay | null;
  let consumer: Consumer | null;
  let topology: ReturnType<typeof testTopology>;
  let queues: string[];

  beforeAll(async () => {
    db = await createMessagingDb('messaging_metrics');
  });
  afterAll(async () => {
    await db.close();
  });

  const start = async (purpose: string) => {
    topology = testTopology(purpose);
    queues = [topology.queue, dlqName(topology.queue)];
    registry = new Registry();
    broker = createBroker({ url, service: 'messaging-test', logger: silentLogger, exchange: topology.exchange, registry });
    await broker.start();
    relay = null;
    consumer = null;
    await db.orm.em.getConnection().execute('truncate outbox, inbox, handler_effects');
  };
  afterEach(async () => {
    await relay?.stop();
    await consumer?.stop();
    await broker.close();
    await deleteQueues(url, queues, topology.exchange);
  });

  test('messaging_delivery_delay_seconds observes each handled event once, from the relay publish to the commit, its retry wait included', async () => {
    await start('delay');
    const retryDelayMs = 400;
    queues.push(retryQueueName(topology.queue, retryDelayMs));
    let calls = 0;
    consumer = await consume(broker, {
      orm: db.orm,
      queue: topology.queue,
      retryDelaysMs: [retryDelayMs],
      handlers: {
        'employee.deleted': async (em, event) => {
          if (++calls === 1) throw new Error('first attempt fails');
          await recordEffect(em, event, topology.queue);
        },
      },
    });
    const series = (values: Awaited<ReturnType<typeof valuesOf>>, suffix: string) => values.find((value) => value.metricName === `messaging_delivery_delay_seconds${suffix}` && value.labels.queue === topology.queue)?.value ?? 0;
    expect(series(await valuesOf(registry, 'messaging_delivery_delay_seconds'), '_count')).toBe(0);

    relay = startOutboxRelay({ orm: db.orm, broker });
    await writeEvents(db.orm, 1);
    await waitUntil('handled on its retry', async () => (await counts(db.orm)).inbox === 1, 10_000);

    const values = await valuesOf(registry, 'messaging_delivery_delay_seconds');
    expect(calls).toBe(2);
    expect(series(values, '_count')).toBe(1);
    expect(series(values, '_sum')).toBeGreaterThanOrEqual(retryDelayMs / 1000);
    expect(series(values, '_sum')).toBeLessThan(10);
  });

  test('messaging_dlq_depth{queue} is the number of messages parked in the consumer DLQ, and 0 once they are replayed and handled', async () => {
    await start('dlq-depth');
    let broken = true;
    consumer = await consume(broker, {
      orm: db.orm,
      queue: topology.queue,
      maxAttempts: 1,
      handlers: {
        'employee.deleted': async (em, event) => {
          if (broken) throw new Error('the replica table is missing');
          await recordEffect(em, event, topology.queue);
        },
      },
    });
    const depth = async () => (await valuesOf(registry, 'messaging_dlq_depth')).find((value) => value.labels.queue === topology.queue)?.value;
    expect(await depth()).toBe(0);

    const envelopes = [validEnvelope(1), validEnvelope(2)];
    await publishRaw(url, topology.exchange, envelopes.map((envelope) => ({ routingKey: envelope.type, body: JSON.stringify(envelope), messageId: envelope.id })));
    await waitUntil('both parked', async () => (await depth()) === 2, 10_000);

    broken = false;
    expect(await replayDeadLetters(url, topology.queue)).toEqual({ replayed: 2, kept: 0 });
    await waitUntil('both handled after the replay', async () => (await counts(db.orm)).inbox === 2, 10_000);
    expect(await depth()).toBe(0);
  });

  test('a stopped consumer no longer reports its DLQ', async () => {
    await start('dlq-stopped');
    consumer = await consume(broker, { orm: db.orm, queue: topology.queue, handlers: { 'employee.deleted': (em, event) => recordEffect(em, event, topology.queue) } });
    expect((await valuesOf(registry, 'messaging_dlq_depth')).map((value) => value.labels.queue)).toEqual([topology.queue]);
    await consumer.stop();
    consumer = null;
    expect(await valuesOf(registry, 'messaging_dlq_depth')).toEqual([]);
  });
});
