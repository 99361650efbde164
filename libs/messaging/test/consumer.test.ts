import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import type { Socket } from 'node:net';
import amqp from 'amqplib';
import { Registry } from 'prom-client';
import { testUrls } from '@academy/testing';
import {
  ATTEMPTS_HEADER,
  REASON_HEADER,
  consume,
  createBroker,
  dlqName,
  listDeadLetters,
  replayDeadLetters,
  retryQueueName,
  startOutboxRelay,
  type Broker,
  type ConsumeOptions,
  type Consumer,
  type OutboxRelay,
} from '../src/index.ts';
import { counts, createMessagingDb, deleteQueues, publishRaw, queueDepth, recordEffect, silentLogger, testTopology, validEnvelope, waitUntil, writeEvents, type TestDb } from './support.ts';

const url = testUrls.rabbitmq;

async function metricTotal(registry: Registry, name: string): Promise<number | undefined> {
  const metric = (await registry.getMetricsAsJSON()).find((candidate) => candidate.name === name);
  return metric?.values.reduce((sum, value) => sum + value.value, 0);
}

describe('consumer and relay on the shared test broker', () => {
  let db: TestDb;
  let registry: Registry;
  let broker: Broker;
  let relay: OutboxRelay | null;
  let consumers: Consumer[];
  let topology: ReturnType<typeof testTopology>;
  let queues: string[];

  beforeAll(async () => {
    db = await createMessagingDb('messaging');
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
    consumers = [];
    relay = null;
    await db.orm.em.getConnection().execute('truncate outbox, inbox, handler_effects');
  };
  /** A consumer of the test queue (by default recording each event's effect), stopped after the test. */
  const startConsumer = async (options: Partial<ConsumeOptions> = {}) => {
    consumers.push(await consume(broker, { orm: db.orm, queue: topology.queue, handlers: { 'employee.deleted': (em, event) => recordEffect(em, event, topology.queue) }, ...options }));
  };
  afterEach(async () => {
    await relay?.stop();
    await Promise.all(consumers.map((consumer) => consumer.stop()));
    await broker.close();
    await deleteQueues(url, queues, topology.exchange);
  });

  test('events written through the outbox are published by the relay and each handled once', async () => {
    await start('roundtrip');
    await startConsumer();
    relay = startOutboxRelay({ orm: db.orm, broker });
    await writeEvents(db.orm, 1000, 100);
    await waitUntil('1,000 handled', async () => (await counts(db.orm)).inbox === 1000, 20_000);
    const after = await counts(db.orm);
    expect(after).toEqual({ inbox: 1000, effects: 1000, distinctEffects: 1000, pending: 0 });
    expect(await metricTotal(registry, 'messaging_published_total')).toBe(1000);
    expect(await metricTotal(registry, 'messaging_consumed_total')).toBe(1000);
    expect(await metricTotal(registry, 'messaging_outbox_backlog')).toBe(0);
  });

  test('a redelivered event (same id twice) is a no-op: handled once', async () => {
    await start('dedupe');
    await startConsumer();
    const envelopes = Array.from({ length: 50 }, (_, i) => validEnvelope(i + 1));
    const body = (i: number) => JSON.stringify(envelopes[i]);
    await publishRaw(url, topology.exchange, [...envelopes, ...envelopes].map((envelope, i) => ({ routingKey: envelope.type, body: body(i % 50), messageId: envelope.id })));
    await waitUntil('100 deliveries settled', async () => (await queueDepth(url, topology.queue)) === 0 && consumers[0].inFlight === 0, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await counts(db.orm)).toMatchObject({ inbox: 50, effects: 50, distinctEffects: 50 });
  });

  test('100 malformed messages among 5,000 valid ones: the 100 land in the DLQ at once, the 5,000 are handled', async () => {
    await start('malformed');
    let calls = 0;
    await startConsumer({
      prefetch: 100,
      handlers: {
        'employee.deleted': async (em, event) => {
          calls++;
          await recordEffect(em, event, topology.queue);
        },
      },
    });
    const malformed = [
      () => 'not json {',
      () => JSON.stringify({ hello: 'world' }),
      () => JSON.stringify({ ...validEnvelope(1), data: { id: -5 } }),
      () => JSON.stringify({ ...validEnvelope(1), id: 'not-a-uuid' }),
      () => JSON.stringify({ ...validEnvelope(1), version: 99 }),
    ];
    const messages: { routingKey: string; body: string }[] = [];
    for (let i = 0; i < 5000; i++) {
      messages.push({ routingKey: 'employee.deleted', body: JSON.stringify(validEnvelope(i + 1)) });
      if (i % 50 === 25) messages.push({ routingKey: 'employee.deleted', body: malformed[messages.length % malformed.length]() });
    }
    expect(messages.length).toBe(5100);
    await publishRaw(url, topology.exchange, messages);
    await waitUntil('5,000 handled and 100 parked', async () => (await counts(db.orm)).inbox === 5000 && (await queueDepth(url, dlqName(topology.queue))) === 100, 40_000);
    expect(await counts(db.orm)).toMatchObject({ inbox: 5000, effects: 5000, distinctEffects: 5000 });
    expect(calls).toBe(5000);
    const parked = await listDeadLetters(url, topology.queue);
    expect(parked).toHaveLength(100);
    expect(parked.every((letter) => letter.attempts === 1 && /JSON|invalid|unsupported/.test(letter.reason ?? ''))).toBe(true);
    expect(await queueDepth(url, dlqName(topology.queue))).toBe(100); // listing does not remove
  }, 55_000);

  test('a handler that fails 3 times then succeeds is handled once, after retries with growing delay', async () => {
    await start('flaky');
    const attemptsAt: number[] = [];
    const delays = [100, 300, 600];
    await startConsumer({
      retryDelaysMs: delays,
      maxAttempts: 5,
      handlers: {
        'employee.deleted': async (em, event) => {
          attemptsAt.push(Date.now());
          await recordEffect(em, event, topology.queue); // rolled back with the failure
          if (attemptsAt.length <= 3) throw new Error(`transient failure ${attemptsAt.length}`);
        },
      },
    });
    const envelope = validEnvelope(7);
    await publishRaw(url, topology.exchange, [{ routingKey: envelope.type, body: JSON.stringify(envelope), messageId: envelope.id }]);
    await waitUntil('handled after retries', async () => (await counts(db.orm)).inbox === 1, 10_000);
    expect(attemptsAt).toHaveLength(4);
    const gaps = attemptsAt.slice(1).map((at, i) => at - attemptsAt[i]);
    gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(delays[i] - 20));
    expect(gaps[2]).toBeGreaterThan(gaps[0]);
    expect(await counts(db.orm)).toMatchObject({ inbox: 1, effects: 1, distinctEffects: 1 });
    expect(await queueDepth(url, dlqName(topology.queue))).toBe(0);
    expect(await metricTotal(registry, 'messaging_retried_total')).toBe(3);
    queues.push(...delays.map((delay) => retryQueueName(topology.queue, delay)));
  });

  test('after the retries a failing message is parked with reason and attempts; replayed once fixed, it is handled once', async () => {
    await start('replay');
    let broken = true;
    let calls = 0;
    await startConsumer({
      retryDelaysMs: [50],
      maxAttempts: 3,
      handlers: {
        'employee.deleted': async (em, event) => {
          calls++;
          if (broken) throw new Error('the replica table is missing');
          await recordEffect(em, event, topology.queue);
        },
      },
    });
    queues.push(retryQueueName(topology.queue, 50));
    const envelope = validEnvelope(9);
    await publishRaw(url, topology.exchange, [{ routingKey: envelope.type, body: JSON.stringify(envelope), messageId: envelope.id }]);
    await waitUntil('parked in the DLQ', async () => (await queueDepth(url, dlqName(topology.queue))) === 1, 10_000);
    expect(calls).toBe(3);
    const [letter] = await listDeadLetters(url, topology.queue);
    expect(letter).toMatchObject({ eventId: envelope.id, type: 'employee.deleted', reason: 'the replica table is missing', attempts: 3, originalQueue: topology.queue });
    expect(letter.headers[ATTEMPTS_HEADER]).toBe(3);
    expect(letter.headers[REASON_HEADER]).toBe('the replica table is missing');
    expect(await metricTotal(registry, 'messaging_dead_lettered_total')).toBe(1);
    expect(await counts(db.orm)).toMatchObject({ inbox: 0, effects: 0 });

    broken = false;
    expect(await replayDeadLetters(url, topology.queue)).toEqual({ replayed: 1, kept: 0 });
    await waitUntil('handled after replay', async () => (await counts(db.orm)).inbox === 1, 10_000);
    expect(await replayDeadLetters(url, topology.queue)).toEqual({ replayed: 0, kept: 0 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(calls).toBe(4);
    expect(await counts(db.orm)).toMatchObject({ inbox: 1, effects: 1, distinctEffects: 1 });
    expect(await queueDepth(url, dlqName(topology.queue))).toBe(0);
  });

  test('two relays on one outbox publish each row exactly once (FOR UPDATE SKIP LOCKED)', async () => {
    await start('relays');
    const seen = new Map<string, number>();
    await startConsumer({
      handlers: {
        'employee.deleted': async (em, event) => {
          seen.set(event.id, (seen.get(event.id) ?? 0) + 1);
          await recordEffect(em, event, topology.queue);
        },
      },
    });
    // A plain queue on the same exchange counts every message published (the inbox would hide duplicates).
    const tap = `${topology.queue}-tap`;
    queues.push(tap);
    const connection = await amqp.connect(url);
    const channel = await connection.createChannel();
    await channel.assertQueue(tap, { durable: false });
    await channel.bindQueue(tap, topology.exchange, 'employee.deleted');
    await writeEvents(db.orm, 3000, 1000);
    const second = createBroker({ url, service: 'messaging-test-2', logger: silentLogger, exchange: topology.exchange });
    await second.start();
    const relays = [startOutboxRelay({ orm: db.orm, broker, batchSize: 50 }), startOutboxRelay({ orm: db.orm, broker: second, batchSize: 50 })];
    try {
      await waitUntil('3,000 handled', async () => (await counts(db.orm)).inbox === 3000, 20_000);
    } finally {
      await Promise.all(relays.map((r) => r.stop()));
      await second.close();
    }
    expect(seen.size).toBe(3000);
    expect([...seen.values()].every((deliveries) => deliveries === 1)).toBe(true);
    expect(await counts(db.orm)).toMatchObject({ inbox: 3000, effects: 3000, pending: 0 });
    expect((await channel.checkQueue(tap)).messageCount).toBe(3000);
    await connection.close();
  });

  test('a connection whose setup does not finish in time is dropped and opened again', async () => {
    await start('slow-setup');
    const exchange = `${topology.exchange}.slow`;
    const slow = createBroker({ url, service: 'messaging-test-slow', logger: silentLogger, exchange, setupTimeoutMs: 500, reconnectDelayMs: { initial: 50, max: 200 } });
    let calls = 0;
    // The first setup hangs (an answer that never comes); the next one finishes.
    await slow.onConnect(async () => {
      calls++;
      if (calls === 1) await new Promise(() => undefined);
    });
    const started = Date.now();
    try {
      await slow.start();
      expect(calls).toBe(2);
      expect(slow.connected).toBe(true);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await slow.close();
      await deleteQueues(url, [], exchange);
    }
  });

  test('a connection that closes while its setup runs, with a setup that still succeeds, is opened again (amqplib would keep the dead one)', async () => {
    await start('closed-in-setup');
    const exchange = `${topology.exchange}.closed`;
    const broken = createBroker({ url, service: 'messaging-test-closed', logger: silentLogger, exchange, reconnectDelayMs: { initial: 50, max: 200 } });
    let calls = 0;
    // The first setup sees its connection die (as when the broker stops), then finishes without error.
    await broken.onConnect(async (connection) => {
      calls++;
      if (calls > 1) return;
      const closed = new Promise((resolve) => connection.once('close', resolve));
      (connection as unknown as { connection: { stream: Socket } }).connection.stream.destroy(new Error('the broker went away'));
      await closed;
    });
    try {
      await broken.start();
      expect(calls).toBe(2);
      expect(broken.connected).toBe(true);
      // and it publishes on the live connection
      expect(await broken.publishEach([validEnvelope(1)])).toEqual([null]);
    } finally {
      await broken.close();
      await deleteQueues(url, [], exchange);
    }
  });

  test('a consumer that cannot start (its queue held by another connection) holds back neither the broker nor publishing, and starts on its own once it can', async () => {
    await start('held');
    const holder = await amqp.connect(url);
    await (await holder.createChannel()).assertQueue(topology.queue, { exclusive: true });
    try {
      // Declaring the quorum queue fails (RESOURCE_LOCKED): the consumer retries on its own.
      await startConsumer();
      relay = startOutboxRelay({ orm: db.orm, broker });
      await writeEvents(db.orm, 10, 10);
      await waitUntil('10 published while the consumer is not consuming', async () => (await counts(db.orm)).pending === 0, 10_000);
      expect(broker.connected).toBe(true);
      expect((await counts(db.orm)).inbox).toBe(0);
    } finally {
      await holder.close();
    }
    // The exclusive queue went with its connection: the consumer declares its own and consumes.
    await waitUntil('the consumer started', async () => {
      await writeEvents(db.orm, 1, 1, 1000 + Math.floor(Math.random() * 1e6));
      return (await counts(db.orm)).inbox > 0;
    }, 20_000, 500);
    expect(broker.connected).toBe(true);
  });

  test('an event nothing can route (no queue bound, no catch-all queue) is returned, not marked published, and retried later', async () => {
    await start('unroutable');
    // Declared before the alternate exchange existed (kept as it is), and its catch-all queue deleted: see relay.test.ts for the catch-all.
    const legacy = `${topology.exchange}.legacy`;
    const connection = await amqp.connect(url);
    await (await connection.createChannel()).assertExchange(legacy, 'topic', { durable: true });
    const legacyBroker = createBroker({ url, service: 'messaging-test-legacy', logger: silentLogger, exchange: legacy });
    await legacyBroker.start();
    await (await connection.createChannel()).deleteQueue(`${legacy}.unrouted`);
    await connection.close();
    try {
      relay = startOutboxRelay({ orm: db.orm, broker: legacyBroker, retryBaseMs: 100 });
      const [id] = await writeEvents(db.orm, 1);
      const row = async () =>
        (await db.orm.em.fork().getConnection().execute<{ published_at: Date | null; attempts: number; last_error: string | null }[]>(`select published_at, attempts, last_error from outbox where event_id = ?`, [id]))[0];
      await waitUntil('first failed attempt', async () => (await row()).attempts >= 1, 15_000);
      expect(await row()).toMatchObject({ published_at: null, last_error: 'no queue is bound for "employee.deleted"' });
      consumers.push(await consume(legacyBroker, { orm: db.orm, queue: topology.queue, handlers: { 'employee.deleted': (em, event) => recordEffect(em, event, topology.queue) } }));
      await waitUntil('published once a queue is bound', async () => (await counts(db.orm)).inbox === 1, 10_000);
      expect((await row()).published_at).not.toBeNull();
    } finally {
      await relay?.stop();
      relay = null;
      await Promise.all(consumers.splice(0).map((consumer) => consumer.stop()));
      await legacyBroker.close();
      await deleteQueues(url, [], legacy);
    }
  });

  test('stop() stops taking deliveries and waits for in-flight handlers to commit', async () => {
    await start('graceful');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = 0;
    const consumer = await consume(broker, {
      orm: db.orm,
      queue: topology.queue,
      prefetch: 5,
      // Five handlers at once, each in its own transaction (a batch would run them one after the other).
      batchSize: 1,
      handlers: {
        'employee.deleted': async (em, event) => {
          started++;
          await gate;
          await recordEffect(em, event, topology.queue);
        },
      },
    });
    const envelopes = Array.from({ length: 20 }, (_, i) => validEnvelope(i + 1));
    await publishRaw(url, topology.exchange, envelopes.map((envelope) => ({ routingKey: envelope.type, body: JSON.stringify(envelope), messageId: envelope.id })));
    await waitUntil('5 in flight', () => started === 5, 15_000);
    const stopping = consumer.stop();
    setTimeout(release, 300);
    await stopping;
    expect(started).toBe(5);
    expect(await counts(db.orm)).toMatchObject({ inbox: 5, effects: 5 });
    expect(await queueDepth(url, topology.queue)).toBe(15);
  });

  test('pending confirms fail (never hang) when the channel closes, and publishing resumes on a new channel', async () => {
    await start('channel-loss');
    await startConsumer();
    const envelopes = Array.from({ length: 200 }, (_, i) => validEnvelope(i + 1));
    // Publishing to an exchange that does not exist makes the broker close the channel (404).
    const outcomes = await broker.publishEach(envelopes, { exchange: `${topology.exchange}.missing` });
    expect(outcomes).toHaveLength(200);
    expect(outcomes.every((outcome) => outcome?.reason === 'channel_closed')).toBe(true);
    await waitUntil('the publish channel to reopen', () => broker.connected, 15_000);
    await expect(broker.publish(envelopes.slice(0, 10))).resolves.toBeUndefined();
    await waitUntil('10 handled', async () => (await counts(db.orm)).inbox === 10, 15_000);
  }, 45_000);

  test('published outbox rows are pruned after the retention period', async () => {
    await start('prune');
    await startConsumer();
    await writeEvents(db.orm, 20);
    await db.orm.em.getConnection().execute(`update outbox set published_at = now() - interval '2 hours' where id in (select id from outbox order by id limit 5)`);
    relay = startOutboxRelay({ orm: db.orm, broker, retentionMs: 3600_000, pruneIntervalMs: 100 });
    await waitUntil('15 handled', async () => (await counts(db.orm)).inbox === 15, 10_000);
    await waitUntil('5 pruned', async () => Number((await db.orm.em.fork().getConnection().execute<{ count: string }[]>('select count(*) as count from outbox'))[0].count) === 15, 15_000);
  });

  test('queues declared earlier with other arguments are kept and consumed (no PRECONDITION_FAILED loop)', async () => {
    await start('legacy');
    const connection = await amqp.connect(url);
    const channel = await connection.createChannel();
    await channel.assertQueue(topology.queue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    await channel.assertQueue(retryQueueName(topology.queue, 50), { durable: true, arguments: { 'x-message-ttl': 50, 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': topology.queue } });
    await connection.close();
    queues.push(retryQueueName(topology.queue, 50));
    let calls = 0;
    await startConsumer({
      retryDelaysMs: [50],
      handlers: {
        'employee.deleted': async (em, event) => {
          if (++calls === 1) throw new Error('once');
          await recordEffect(em, event, topology.queue);
        },
      },
    });
    const envelope = validEnvelope(3);
    await publishRaw(url, topology.exchange, [{ routingKey: envelope.type, body: JSON.stringify(envelope), messageId: envelope.id }]);
    await waitUntil('handled after one retry', async () => (await counts(db.orm)).inbox === 1, 10_000);
    expect(calls).toBe(2);
    expect(broker.connected).toBe(true);
  });

  test('by default waiting first deliveries share a transaction with their inbox rows, the global EntityManager in it too; a retried message is handled alone', async () => {
    await start('default-batch');
    await startConsumer({
      prefetch: 100,
      handlers: {
        'employee.deleted': async (_em, event) => {
          // Through the service's global EntityManager, as a handler that ignores its `em` would; the consumer column records the transaction id.
          const em = db.orm.em;
          await em.getConnection().execute(`insert into handler_effects (event_id, consumer) values (?, txid_current()::text)`, [event.id], 'run', em.getTransactionContext());
        },
      },
    });
    const retried = validEnvelope(10_001);
    const messages: Parameters<typeof publishRaw>[2] = Array.from({ length: 300 }, (_, i) => validEnvelope(i + 1)).map((envelope) => ({ routingKey: envelope.type, body: JSON.stringify(envelope), messageId: envelope.id }));
    // In the middle of the burst, a copy from a retry queue (it failed once already).
    messages.splice(150, 0, { routingKey: retried.type, body: JSON.stringify(retried), messageId: retried.id, headers: { [ATTEMPTS_HEADER]: 1 } });
    await publishRaw(url, topology.exchange, messages);
    await waitUntil('301 handled', async () => (await counts(db.orm)).inbox === 301, 20_000);
    const [row] = await db.orm.em.fork().getConnection().execute<{ together: string; transactions: string; with_retried: string }[]>(
      `select count(*) filter (where i.xmin::text::bigint = h.consumer::bigint % 4294967296) as together, count(distinct h.consumer) as transactions,
              (select count(*) from handler_effects o where o.consumer = (select consumer from handler_effects where event_id = ?)) as with_retried
       from handler_effects h join inbox i on i.event_id = h.event_id`,
      [retried.id],
    );
    expect(Number(row.together)).toBe(301);
    expect(Number(row.transactions)).toBeLessThan(200);
    expect(Number(row.with_retried)).toBe(1);
  }, 60_000);

  test('with batchSize, waiting events share a transaction; a failing event is handled again on its own and nothing is duplicated', async () => {
    await start('batched');
    queues.push(retryQueueName(topology.queue, 50));
    const failedOnce = new Set<number>();
    let failures = 0;
    await startConsumer({
      prefetch: 100,
      batchSize: 25,
      retryDelaysMs: [50],
      handlers: {
        'employee.deleted': async (em, event) => {
          if (event.data.id % 300 === 0 && !failedOnce.has(event.data.id)) {
            failedOnce.add(event.data.id);
            failures++;
            throw new Error('transient');
          }
          // The consumer column records the transaction id here, to see that events shared transactions.
          await em.getConnection().execute(`insert into handler_effects (event_id, consumer) values (?, txid_current()::text)`, [event.id], 'run', em.getTransactionContext());
        },
      },
    });
    const envelopes = Array.from({ length: 1000 }, (_, i) => validEnvelope(i + 1));
    await publishRaw(url, topology.exchange, [...envelopes, ...envelopes.slice(0, 100)].map((envelope) => ({ routingKey: envelope.type, body: JSON.stringify(envelope), messageId: envelope.id })));
    await waitUntil('1,000 handled', async () => (await counts(db.orm)).inbox === 1000, 20_000);
    await waitUntil('all settled', async () => (await queueDepth(url, topology.queue)) === 0 && consumers[0].inFlight === 0, 15_000);
    expect(failures).toBe(3);
    expect(await counts(db.orm)).toMatchObject({ inbox: 1000, effects: 1000, distinctEffects: 1000 });
    const [{ transactions }] = await db.orm.em.fork().getConnection().execute<{ transactions: string }[]>(`select count(distinct consumer) as transactions from handler_effects`);
    expect(Number(transactions)).toBeLessThan(500);
    expect(await queueDepth(url, dlqName(topology.queue))).toBe(0);
  }, 60_000);
});
