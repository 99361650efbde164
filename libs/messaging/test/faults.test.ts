import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startFaultRabbit, type RabbitInstance } from '@academy/infra';
import { readinessHttpStatus, runReadiness } from '@academy/kit';
import { consume, createBroker, startOutboxRelay, type Broker, type BrokerOptions } from '../src/index.ts';
import { counts, createMessagingDb, recordEffect, silentLogger, testTopology, validEnvelope, waitUntil, writeEvents, type TestDb } from './support.ts';

// These tests stop and restart a broker: they start their OWN RabbitMQ on free ports (never the shared one).
// Timeouts leave room for a loaded machine (the 10,000 events at 500/s alone take 20 s when it is idle).
describe('broker outages (a RabbitMQ of this test, stopped and restarted by pid)', () => {
  let rabbit: RabbitInstance;
  let db: TestDb;

  beforeAll(async () => {
    [rabbit, db] = await Promise.all([startFaultRabbit('messaging'), createMessagingDb('messaging_faults')]);
  }, 120_000);
  afterAll(async () => {
    await rabbit?.destroy();
    await db?.close();
  }, 30_000);

  /** The Erlang VM's pid (RABBITMQ_PID_FILE), which SIGSTOP freezes: the broker hangs without closing a socket. */
  const beamPid = () => Number(readFileSync(path.join(rabbit.dir, 'pid'), 'utf8').trim());

  /** 64 KB envelopes: 1,024 of them fill amqplib's buffers, so a publish of more meets backpressure at a broker that stopped reading. */
  const bigEnvelopes = (count: number) => Array.from({ length: count }, (_, i) => ({ ...validEnvelope(i + 1), padding: 'x'.repeat(65_536) }));

  const startPipeline = async (purpose: string, brokerOptions: Partial<BrokerOptions> = {}) => {
    await db.orm.em.getConnection().execute('truncate outbox, inbox, handler_effects');
    const { exchange, queue } = testTopology(purpose);
    const broker: Broker = createBroker({ url: rabbit.url, service: 'faults-test', logger: silentLogger, exchange, reconnectDelayMs: { initial: 100, max: 2000 }, ...brokerOptions });
    await broker.start();
    const consumer = await consume(broker, { orm: db.orm, queue, prefetch: 100, handlers: { 'employee.deleted': (em, event) => recordEffect(em, event, queue) } });
    const relay = startOutboxRelay({ orm: db.orm, broker, retryMaxMs: 1000 });
    return {
      broker,
      async stop() {
        await relay.stop();
        await consumer.stop();
        await broker.close();
      },
    };
  };

  test('5,000 events written while the broker is stopped (readiness degraded, not failed): once it starts, all 5,000 are consumed, each exactly once', async () => {
    const pipeline = await startPipeline('outage');
    try {
      await rabbit.stop();
      await waitUntil('the broker to be seen down', () => !pipeline.broker.connected, 10_000);
      // writes still land in the outbox, so readiness is degraded (200), not a pod out of rotation
      const report = await runReadiness([pipeline.broker.readiness()]);
      expect([report.status, readinessHttpStatus(report)]).toEqual(['degraded', 200]);
      await writeEvents(db.orm, 5000, 500);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await counts(db.orm)).toEqual({ inbox: 0, effects: 0, distinctEffects: 0, pending: 5000 });

      await rabbit.start();
      await waitUntil('5,000 consumed', async () => (await counts(db.orm)).inbox === 5000, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await counts(db.orm)).toEqual({ inbox: 5000, effects: 5000, distinctEffects: 5000, pending: 0 });
    } finally {
      await pipeline.stop();
    }
  }, 120_000);

  test('broker restarted twice while 10,000 events flow: 0 lost, 0 duplicate effects, relay and consumer back within 10 s', async () => {
    const pipeline = await startPipeline('restarts');
    try {
      // 10,000 events at about 500/s (50 per transaction every 100 ms) while the broker goes down twice.
      const writing = (async () => {
        for (let batch = 0; batch < 200; batch++) {
          await writeEvents(db.orm, 50, 50, batch * 50 + 1);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();
      const recoveries: number[] = [];
      for (let restart = 0; restart < 2; restart++) {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await rabbit.restart();
        const before = (await counts(db.orm)).inbox;
        // Back = the relay publishes again and the consumer handles again (events written during the outage flow through).
        recoveries.push(await waitUntil('relay and consumer back', async () => pipeline.broker.connected && (await counts(db.orm)).inbox > before, 10_000, 50));
        if (process.env.MESSAGING_TEST_VERBOSE) process.stderr.write(`restart ${restart + 1}: relay and consumer back ${recoveries[restart]} ms after the broker\n`);
      }
      await writing;
      await waitUntil('10,000 consumed', async () => (await counts(db.orm)).inbox === 10_000, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await counts(db.orm)).toEqual({ inbox: 10_000, effects: 10_000, distinctEffects: 10_000, pending: 0 });
      expect(recoveries).toHaveLength(2);
      for (const ms of recoveries) expect(ms).toBeLessThan(10_000);
    } finally {
      await pipeline.stop();
    }
  }, 120_000);

  test('a hung broker (SIGSTOP) pins no database connection: claimed rows are leased by committed statements, and published once it resumes', async () => {
    const pipeline = await startPipeline('hung');
    const sql = async <T>(query: string) => db.orm.em.fork().getConnection().execute<T[]>(query);
    try {
      await writeEvents(db.orm, 100, 100);
      await waitUntil('100 consumed', async () => (await counts(db.orm)).inbox === 100, 10_000);
      process.kill(beamPid(), 'SIGSTOP');
      try {
        // Written while the broker hangs: the relay claims and publishes them, and waits for confirms.
        await writeEvents(db.orm, 200, 100, 101);
        await waitUntil('200 rows claimed', async () => Number((await sql<{ n: string }>(`select count(*) as n from outbox where published_at is null and available_at > now()`))[0].n) === 200, 5_000, 20);
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const [open] = await sql<{ n: string }>(`select count(*) as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`);
        expect(Number(open.n)).toBe(0);
        expect((await counts(db.orm)).pending).toBe(200);
      } finally {
        process.kill(beamPid(), 'SIGCONT');
      }
      await waitUntil('300 consumed', async () => (await counts(db.orm)).inbox === 300, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await counts(db.orm)).toEqual({ inbox: 300, effects: 300, distinctEffects: 300, pending: 0 });
    } finally {
      await pipeline.stop();
    }
  }, 120_000);

  test('a publish held up by a broker that stopped reading (SIGSTOP) ends at its confirm deadline, even while it waits for the socket to drain', async () => {
    const { exchange } = testTopology('drain');
    // Heartbeats far apart, so only the deadline can end the wait (not a connection closed for missed heartbeats).
    const broker = createBroker({ url: rabbit.url, service: 'faults-test', logger: silentLogger, exchange, confirmTimeoutMs: 1000, heartbeatSeconds: 120 });
    await broker.start();
    // 64 KB each: far more than the socket buffers hold, so publishing hits backpressure.
    const envelopes = bigEnvelopes(2000);
    process.kill(beamPid(), 'SIGSTOP');
    try {
      const started = Date.now();
      const outcomes = await broker.publishEach(envelopes);
      // Without the deadline the drain wait ends at the heartbeat (120 s) or never. The deadline is also read before
      // each write (the next test pins it): before, the 1,024 messages written until amqplib pushed back were all
      // written whatever the time, 64 MB of JSON and frames, 11-13 s of wall time at load 28.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(outcomes).toHaveLength(2000);
      expect(outcomes.every((outcome) => outcome !== null)).toBe(true);
      expect(new Set(outcomes.map((outcome) => outcome?.reason))).toEqual(new Set(['timeout']));
    } finally {
      process.kill(beamPid(), 'SIGCONT');
      await broker.close();
    }
  }, 60_000);

  test('a publish stops writing at its deadline, read from its clock before each message: the time the writes take counts', async () => {
    const { exchange } = testTopology('write-deadline');
    // The clock is the test's: writing a message takes 100 ms of it (the routing key is asked for once a message, as it
    // is written), so the 1,000 ms deadline passes after the tenth message, however fast the machine writes.
    let clock = 0;
    const routingKey = (envelope: { type: string }) => {
      clock += 100;
      return envelope.type;
    };
    const broker = createBroker({ url: rabbit.url, service: 'faults-test', logger: silentLogger, exchange, confirmTimeoutMs: 1000, heartbeatSeconds: 120, now: () => clock });
    await broker.start();
    const envelopes = bigEnvelopes(1500);
    process.kill(beamPid(), 'SIGSTOP');
    try {
      const outcomes = await broker.publishEach(envelopes, { routingKey });
      // Without the clock read between writes, every message until amqplib pushed back (1,024) was written.
      expect(clock).toBe(1000);
      expect(outcomes.slice(0, 10).map((outcome) => outcome?.message)).toEqual(Array.from({ length: 10 }, () => 'no confirm within 1000 ms'));
      expect(new Set(outcomes.slice(10).map((outcome) => outcome?.message))).toEqual(new Set(['not written within 1000 ms']));
    } finally {
      process.kill(beamPid(), 'SIGCONT');
      await broker.close();
    }
  }, 60_000);

  test('a relay batch whose publish ran out of its deadline stays in the outbox, delayed: published once the broker reads again, each event handled once', async () => {
    // Confirms given up after 1 s; heartbeats far apart, so the connection stays and only the deadline fails the batch.
    const pipeline = await startPipeline('write-deadline-relay', { confirmTimeoutMs: 1000, heartbeatSeconds: 120 });
    const sql = async <T>(query: string) => db.orm.em.fork().getConnection().execute<T[]>(query);
    try {
      await writeEvents(db.orm, 10, 10);
      await waitUntil('10 consumed', async () => (await counts(db.orm)).inbox === 10, 10_000);
      process.kill(beamPid(), 'SIGSTOP');
      try {
        await writeEvents(db.orm, 200, 100, 11);
        // Each publish failed at its deadline (timed out, written or not), and every row is still unsent, with its next try set.
        await waitUntil(
          'the 200 rows failed once',
          async () => Number((await sql<{ n: string }>(`select count(*) as n from outbox where published_at is null and attempts >= 1 and last_error like '% within 1000 ms'`))[0].n) === 200,
          15_000,
          50,
        );
        expect((await counts(db.orm)).pending).toBe(200);
      } finally {
        process.kill(beamPid(), 'SIGCONT');
      }
      await waitUntil('210 consumed', async () => (await counts(db.orm)).inbox === 210, 30_000);
      await waitUntil('210 marked sent', async () => (await counts(db.orm)).pending === 0, 30_000);
      expect(await counts(db.orm)).toEqual({ inbox: 210, effects: 210, distinctEffects: 210, pending: 0 });
    } finally {
      await pipeline.stop();
    }
  }, 120_000);
});
