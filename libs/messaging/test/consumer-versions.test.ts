import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import { Registry } from 'prom-client';
import { eventVersions } from '@academy/contracts';
import { testUrls } from '@academy/testing';
import { consume, createBroker, dlqName, listDeadLetters, type Broker, type ConsumeOptions, type Consumer } from '../src/index.ts';
import { counts, createMessagingDb, deleteQueues, publishRaw, queueDepth, recordEffect, silentLogger, testTopology, validEnvelope, waitUntil, type TestDb } from './support.ts';

const url = testUrls.rabbitmq;
const current = eventVersions['employee.deleted'];
const next = current + 1;

describe('a consumer reads the event versions it knows', () => {
  let db: TestDb;
  let registry: Registry;
  let broker: Broker;
  let consumer: Consumer | null = null;
  let topology: ReturnType<typeof testTopology>;
  const handled: { id: number; version: number }[] = [];

  beforeAll(async () => {
    db = await createMessagingDb('messaging_versions');
  });
  afterAll(async () => {
    await db.close();
  });

  const start = async (purpose: string, options: Partial<ConsumeOptions> = {}) => {
    topology = testTopology(purpose);
    registry = new Registry();
    broker = createBroker({ url, service: 'messaging-test', logger: silentLogger, exchange: topology.exchange, registry });
    await broker.start();
    handled.length = 0;
    await db.orm.em.getConnection().execute('truncate outbox, inbox, handler_effects');
    consumer = await consume(broker, {
      orm: db.orm,
      queue: topology.queue,
      handlers: {
        'employee.deleted': async (em, event) => {
          handled.push({ id: event.data.id, version: event.version });
          await recordEffect(em, event, topology.queue);
        },
      },
      ...options,
    });
  };
  afterEach(async () => {
    await consumer?.stop();
    await broker.close();
    await deleteQueues(url, [topology.queue, dlqName(topology.queue)], topology.exchange);
  });

  /** Publishes employee.deleted envelopes of the given versions, ids 1, 2, … in order. */
  const publishVersions = (versions: number[]) =>
    publishRaw(
      url,
      topology.exchange,
      versions.map((version, i) => ({ routingKey: 'employee.deleted', body: JSON.stringify({ ...validEnvelope(i + 1), version }) })),
    );

  test('by default the current version is handled and a newer one is parked in the DLQ at once, with the versions it reads in the reason', async () => {
    await start('versions-default');
    await publishVersions([current, next, current]);
    await waitUntil('2 handled and 1 parked', async () => (await counts(db.orm)).inbox === 2 && (await queueDepth(url, dlqName(topology.queue))) === 1, 10_000);
    expect(handled.map((event) => event.id).sort()).toEqual([1, 3]);
    const [letter] = await listDeadLetters(url, topology.queue);
    expect(letter).toMatchObject({
      type: 'employee.deleted',
      attempts: 1,
      reason: `unsupported version ${next} of "employee.deleted" (this consumer reads version ${current})`,
      originalQueue: topology.queue,
    });
    const deadLettered = (await registry.getSingleMetric('messaging_dead_lettered_total')!.get()).values;
    expect(deadLettered).toEqual([expect.objectContaining({ value: 1, labels: expect.objectContaining({ reason: 'unsupported_version' }) })]);
  });

  test('a consumer that declares two versions of a type handles both, and parks a third', async () => {
    await start('versions-declared', { versions: { 'employee.deleted': [current, next] } });
    await publishVersions([current, next, next + 1]);
    await waitUntil('2 handled and 1 parked', async () => (await counts(db.orm)).inbox === 2 && (await queueDepth(url, dlqName(topology.queue))) === 1, 10_000);
    expect(handled.sort((a, b) => a.id - b.id)).toEqual([
      { id: 1, version: current },
      { id: 2, version: next },
    ]);
    const [letter] = await listDeadLetters(url, topology.queue);
    expect(letter.reason).toBe(`unsupported version ${next + 1} of "employee.deleted" (this consumer reads versions ${current}, ${next})`);
  });
});
