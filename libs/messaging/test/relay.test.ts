import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import amqp from 'amqplib';
import pg from 'pg';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { createEnvelope } from '@academy/contracts';
import { createOrm } from '@academy/db';
import { ReadinessError } from '@academy/kit';
import { testUrls } from '@academy/testing';
import { createBroker, ensureOutboxNotify, messagingEntities, outboxInsertSql, outboxRow, recordEvent, startOutboxRelay, unroutedName, type Broker, type OutboxRelay } from '../src/index.ts';
import { OUTBOX_UNPUBLISHED_INDEX } from '../src/relay.ts';
import { createMessagingDb, deleteQueues, queueDepth, silentLogger, testTopology, waitUntil, writeEvents, type TestDb } from './support.ts';

const url = testUrls.rabbitmq;
// No queue is bound for any type on this file's exchanges: this one stands for a type nobody consumes yet.
const UNBOUND = 'employee.deleted';
const unboundData = (id: number) => ({ id });

interface OutboxRow {
  event_id: string;
  published_at: Date | null;
  attempts: number;
  last_error: string | null;
}

describe('outbox relay: catch-all for unbound types, LISTEN/NOTIFY wake-up, leases, backlog figures', () => {
  let db: TestDb;
  let exchange: string;
  let registry: Registry;
  let broker: Broker;
  const relays: OutboxRelay[] = [];
  const brokers: Broker[] = [];
  const exchanges: string[] = [];

  const rows = async (): Promise<OutboxRow[]> =>
    db.orm.em.fork().getConnection().execute<OutboxRow[]>(`select event_id, published_at, attempts, last_error from outbox order by id`);
  const unsent = async () => (await rows()).filter((row) => row.published_at === null).length;
  const relay = (options: Partial<Parameters<typeof startOutboxRelay>[0]> = {}) => {
    const started = startOutboxRelay({ orm: db.orm, broker, ...options });
    relays.push(started);
    return started;
  };
  const newBroker = async (name: string, logger = silentLogger) => {
    const created = createBroker({ url, service: 'relay-test', logger, exchange: name, registry: new Registry() });
    brokers.push(created);
    await created.start();
    return created;
  };

  beforeAll(async () => {
    db = await createMessagingDb('messaging_relay');
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(async () => {
    await db.orm.em.getConnection().execute('truncate outbox, inbox, handler_effects');
    exchange = testTopology('relay').exchange;
    exchanges.push(exchange);
    registry = new Registry();
    broker = createBroker({ url, service: 'relay-test', logger: silentLogger, exchange, registry });
    brokers.push(broker);
    await broker.start();
  });
  afterEach(async () => {
    await Promise.all(relays.splice(0).map((started) => started.stop()));
    await Promise.all(brokers.splice(0).map((started) => started.close()));
    for (const name of exchanges.splice(0)) await deleteQueues(url, [], name);
  });

  test('an event type no queue is bound for leaves the outbox at once and is kept in the catch-all queue', async () => {
    expect(broker.hasAlternateExchange).toBe(true);
    relay();
    const em = db.orm.em.fork();
    const envelope = recordEvent(em, UNBOUND, unboundData(1), { source: 'test' });
    await em.flush();
    const ms = await waitUntil('the row published', async () => (await unsent()) === 0, 5_000, 10);
    expect(ms).toBeLessThan(1000);
    expect(await rows()).toEqual([expect.objectContaining({ event_id: envelope.id, attempts: 0, last_error: null })]);

    const connection = await amqp.connect(url);
    try {
      const channel = await connection.createChannel();
      const kept = await channel.get(unroutedName(exchange), { noAck: true });
      expect(kept && kept.properties.messageId).toBe(envelope.id);
      expect(kept && kept.fields.routingKey).toBe(UNBOUND);
    } finally {
      await connection.close();
    }
  });

  test('the catch-all queue is bounded (length, age) and its depth is a metric', async () => {
    relay();
    const em = db.orm.em.fork();
    for (let i = 1; i <= 3; i++) recordEvent(em, UNBOUND, unboundData(i), { source: 'test' });
    await em.flush();
    await waitUntil('3 kept', async () => (await queueDepth(url, unroutedName(exchange))) === 3, 15_000, 20);
    const depth = (await registry.getMetricsAsJSON()).find((metric) => metric.name === 'messaging_unrouted_depth');
    expect(depth?.values[0]?.value).toBe(3);

    // Declaring it again with the arguments of the library succeeds: they are exactly these.
    const connection = await amqp.connect(url);
    try {
      const channel = await connection.createChannel();
      await expect(
        channel.assertQueue(unroutedName(exchange), { durable: true, arguments: { 'x-queue-type': 'classic', 'x-max-length': 100_000, 'x-overflow': 'drop-head', 'x-message-ttl': 7 * 24 * 3600 * 1000 } }),
      ).resolves.toMatchObject({ messageCount: 3 });
    } finally {
      await connection.close();
    }
  });

  test('an exchange declared earlier without the alternate exchange is kept: the broker starts, warns how to add one, and forwards unbound events to the catch-all itself', async () => {
    const legacy = `${exchange}.legacy`;
    exchanges.push(legacy);
    const connection = await amqp.connect(url);
    await (await connection.createChannel()).assertExchange(legacy, 'topic', { durable: true });
    await connection.close();
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) }));
    const legacyBroker = await newBroker(legacy, logger);
    expect(legacyBroker.connected).toBe(true);
    expect(legacyBroker.hasAlternateExchange).toBe(false);
    expect(lines.join('')).toContain('rabbitmqctl set_policy');
    // The broker returns them to the publisher, which forwards them to the catch-all: the outbox still drains at once.
    relay({ broker: legacyBroker });
    const em = db.orm.em.fork();
    const envelope = recordEvent(em, UNBOUND, unboundData(5), { source: 'test' });
    await em.flush();
    await waitUntil('the row published', async () => (await unsent()) === 0, 5_000, 10);
    expect(await rows()).toEqual([expect.objectContaining({ event_id: envelope.id, attempts: 0, last_error: null })]);
    const check = await amqp.connect(url);
    try {
      const kept = await (await check.createChannel()).get(unroutedName(legacy), { noAck: true });
      expect(kept && kept.properties.messageId).toBe(envelope.id);
      expect(kept && kept.fields.routingKey).toBe(UNBOUND);
    } finally {
      await check.close();
    }
  });

  test('rows inserted by raw SQL (as hours-bank writes them) wake the relay through NOTIFY, not the poll', async () => {
    const started = relay({ intervalMs: 60_000 });
    expect(await started.listening).toBe(true);
    await waitUntil('the first pass to end', async () => (await unsent()) === 0, 10_000, 10);
    const envelope = createEnvelope(UNBOUND, unboundData(6), { source: 'test' });
    const insertedAt = Date.now();
    await db.orm.em
      .fork()
      .getConnection()
      .execute(outboxInsertSql(), outboxRow(envelope));
    await waitUntil('the row published', async () => (await unsent()) === 0, 5_000, 5);
    expect(Date.now() - insertedAt).toBeLessThan(1000);
  });

  test('the claim and the mark run as named prepared statements (parsed and planned once per connection, not at every wake-up)', async () => {
    // Poll only, on a pool of one connection: the relay's statements run on the connection this test then reads.
    const single = await createOrm({ clientUrl: db.url, entities: messagingEntities, migrations: [], poolMax: 1 });
    try {
      const started = relay({ orm: single, listen: false, intervalMs: 20 });
      expect(await started.listening).toBe(false);
      await writeEvents(db.orm, 3, 1);
      await waitUntil('the rows published', async () => (await unsent()) === 0, 5_000, 10);
      await started.stop();
      const prepared = await single.em.getConnection().execute<{ name: string; statement: string }[]>(`select name, statement from pg_prepared_statements order by name`);
      expect(prepared).toEqual([
        { name: 'academy_outbox_claim', statement: expect.stringContaining('for update skip locked') },
        { name: 'academy_outbox_mark_sent', statement: expect.stringContaining('set published_at = now()') },
      ]);
    } finally {
      await single.close();
    }
  });

  test('the claim and the mark, prepared while the outbox was empty, never scan its heap sequentially once it has grown', async () => {
    // As a new service's database, or bench:blocks' (analysed before its first event): the statistics
    // say the outbox is empty, and autovacuum stays away for the test (it re-plans at its analyze).
    // The test's own reads run on a connection that scans no table sequentially either: only the relay's count.
    const probe = new pg.Client({ connectionString: db.url });
    await probe.connect();
    const sql = async (text: string, values: unknown[] = []) => (await probe.query(text, values)).rows;
    // Events written on that connection too (raw SQL, as hours-bank writes them): the relay hears their NOTIFY.
    const write = async (id: number) => sql(outboxInsertSql({ eventId: '$1::uuid', type: '$2::text', envelope: '$3::jsonb', traceContext: '$4::jsonb' }), outboxRow(createEnvelope(UNBOUND, unboundData(id), { source: 'test' })));
    await sql('set enable_seqscan = off');
    await sql('alter table outbox set (autovacuum_enabled = false)');
    try {
      await sql('vacuum analyze outbox');
      // Sequential scans of the outbox, and the entries read from its primary key and from the claim's index.
      const scans = async () => {
        const [row] = await sql(
          `select t.seq_scan::int as seq, (select idx_tup_read::int from pg_stat_user_indexes where indexrelname = 'outbox_pkey') as pkey,
                  (select idx_scan::int from pg_stat_user_indexes where indexrelname = '${OUTBOX_UNPUBLISHED_INDEX}') as claims
             from pg_stat_user_tables t where t.relname = 'outbox'`,
        );
        return row as { seq: number; pkey: number; claims: number };
      };
      const published = () => waitUntil('the rows published', async () => Number((await sql(`select count(*) as n from outbox where published_at is null`))[0]!.n) === 0, 5_000, 10);
      // pruneIntervalMs: the prune (a statement planned afresh) runs once, at the start, before the window.
      const started = relay({ intervalMs: 20, pruneIntervalMs: 3_600_000 });
      expect(await started.listening).toBe(true);
      // More than five claims and marks on the empty outbox: PostgreSQL settles on each one's generic plan.
      for (let i = 0; i < 8; i++) {
        await write(i + 1);
        await published();
      }
      // Then the outbox grows: 3,000 published rows (about 80 heap pages), the statistics untouched.
      await sql(`insert into outbox (event_id, type, envelope, created_at, available_at, published_at, attempts)
                 select gen_random_uuid(), 'employee.deleted', jsonb_build_object('pad', repeat('x', 100)), now(), now(), now(), 0 from generate_series(1, 3000)`);
      // A backend reports its scans at most once a second: the window is 2.5 s of claims (one each 20 ms)
      // and three events' claims and marks, opened a second after the outbox's last other reader.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const before = await scans();
      for (let i = 0; i < 3; i++) await write(100 + i);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const after = await scans();
      // Before: 195–296 sequential scans (each claim and mark read the whole heap); with sequential scans
      // off and no claim's index, each claim walked the primary key through the 3,000 published rows.
      expect({ seq: after.seq - before.seq, pkeyUnder100: after.pkey - before.pkey < 100, claimsOnItsIndex: after.claims - before.claims > 20 }).toEqual({ seq: 0, pkeyUnder100: true, claimsOnItsIndex: true });
      await published();
    } finally {
      await sql('alter table outbox reset (autovacuum_enabled)');
      await probe.end();
    }
  });

  test("a lone commit in this process is claimed once: its NOTIFY names a transaction the in-process wake's claim already saw", async () => {
    // Counts the relay's claim statements (a spy on pg's client: the statements still run).
    const query = pg.Client.prototype.query;
    let claims = 0;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      if ((args[0] as { name?: string } | undefined)?.name === 'academy_outbox_claim') claims++;
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    try {
      const started = relay({ intervalMs: 60_000 });
      expect(await started.listening).toBe(true);
      await waitUntil('the first pass to end', async () => (await unsent()) === 0, 10_000, 10);
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Claims per lone commit. The in-process wake comes first as a rule, and its claim's snapshot covers the
      // NOTIFY that follows: one claim. At load the listener's NOTIFY can be read before the writer's COMMIT
      // answer; its claim runs first, and the in-process wake, which cannot name its transaction, claims once
      // more (seen once in a rehearsal at load 5). Before the fix every lone commit cost two claims.
      const perCommit: number[] = [];
      for (let i = 0; i < 5; i++) {
        claims = 0;
        const em = db.orm.em.fork();
        recordEvent(em, UNBOUND, unboundData(20 + i), { source: 'test' });
        await em.flush();
        await waitUntil('the row published', async () => (await unsent()) === 0, 5_000, 5);
        // Time for the commit's NOTIFY to arrive and be handled.
        await new Promise((resolve) => setTimeout(resolve, 300));
        perCommit.push(claims);
      }
      expect(perCommit.every((count) => count === 1 || count === 2)).toBe(true);
      expect(perCommit.filter((count) => count === 1).length).toBeGreaterThanOrEqual(3);
      // A commit the relay's last claim did not see (another session, no in-process wake) is still claimed on its NOTIFY.
      claims = 0;
      await db.orm.em.fork().getConnection().execute(outboxInsertSql(), outboxRow(createEnvelope(UNBOUND, unboundData(30), { source: 'test' })));
      await waitUntil('the raw row published', async () => (await unsent()) === 0, 5_000, 5);
      expect(claims).toBe(1);
    } finally {
      pg.Client.prototype.query = query;
    }
  });

  test("a second instance's relay hears the first one's commits", async () => {
    const other = await createOrm({ clientUrl: db.url, entities: messagingEntities, migrations: [], poolMax: 2 });
    try {
      const started = relay({ intervalMs: 60_000 });
      expect(await started.listening).toBe(true);
      // Written through another ORM (another process, for this relay): no in-process nudge reaches it.
      const em = other.em.fork();
      recordEvent(em, UNBOUND, unboundData(7), { source: 'test' });
      const writtenAt = Date.now();
      await em.flush();
      await waitUntil('the row published', async () => (await unsent()) === 0, 5_000, 5);
      expect(Date.now() - writtenAt).toBeLessThan(1000);
    } finally {
      await other.close();
    }
  });

  test('the notify trigger is installed once: concurrent and repeated starts neither fail nor add a second one', async () => {
    await Promise.all([ensureOutboxNotify(db.orm), ensureOutboxNotify(db.orm), ensureOutboxNotify(db.orm)]);
    await ensureOutboxNotify(db.orm);
    const [row] = await db.orm.em.fork().getConnection().execute<{ count: string }[]>(`select count(*) as count from pg_trigger where tgrelid = 'outbox'::regclass and not tgisinternal`);
    expect(Number(row.count)).toBe(1);
  });

  test('claimed rows are leased by a committed statement: a relay that died mid-batch leaves them to be claimed again after the lease', async () => {
    await writeEvents(db.orm, 5);
    // What a claim leaves behind when its relay dies before marking: rows hidden until the lease ends.
    await db.orm.em.getConnection().execute(`update outbox set available_at = now() + interval '600 milliseconds'`);
    const started = relay({ intervalMs: 50 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await unsent()).toBe(5);
    await waitUntil('published after the lease', async () => (await unsent()) === 0, 15_000, 20);
    expect(await started.stats()).toEqual({ unsent: 0, oldestUnsentSeconds: 0 });
  });

  test('a commit is published while earlier batches still wait for their confirms, up to batchSize × concurrency rows unsettled', async () => {
    // A broker slow to confirm: each message reaches RabbitMQ at once, its confirm reaches the relay only when released.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const publishEach = broker.publishEach.bind(broker);
    broker.publishEach = async (...args) => {
      const outcomes = await publishEach(...args);
      await released;
      return outcomes;
    };
    const started = relay({ intervalMs: 60_000, batchSize: 2, concurrency: 2 });
    expect(await started.listening).toBe(true);
    const caught = unroutedName(exchange);
    try {
      // Six commits of one row each: the first four are written to the broker without waiting for any confirm, then the bound holds.
      for (let i = 0; i < 6; i++) await writeEvents(db.orm, 1, 1, 20 + i);
      await waitUntil('4 published with no confirm back', async () => (await queueDepth(url, caught)) === 4, 10_000, 20);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await queueDepth(url, caught)).toBe(4);
      expect(await unsent()).toBe(6);
    } finally {
      release();
    }
    await waitUntil('all 6 published and marked sent', async () => (await unsent()) === 0, 10_000, 20);
    expect(await queueDepth(url, caught)).toBe(6);
  });

  test("a pool whose every connection is held by others' transactions does not hold up a commit's publication", async () => {
    const busy = await createOrm({ clientUrl: db.url, entities: messagingEntities, migrations: [], poolMax: 2, acquireTimeoutMs: 60_000 });
    const other = await createOrm({ clientUrl: db.url, entities: messagingEntities, migrations: [], poolMax: 2 });
    const holders = [busy.em.fork(), busy.em.fork()];
    try {
      const started = relay({ orm: busy, intervalMs: 60_000 });
      expect(await started.listening).toBe(true);
      await waitUntil('the first pass to end', async () => (await unsent()) === 0, 10_000, 10);
      // Both connections of the relay's pool in open transactions (requests or handlers that take their time).
      for (const holder of holders) {
        await holder.begin();
        await holder.getConnection().execute('select 1', [], 'all', holder.getTransactionContext());
      }
      const em = other.em.fork();
      recordEvent(em, UNBOUND, unboundData(8), { source: 'test' });
      const writtenAt = Date.now();
      await em.flush();
      await waitUntil('the row published', async () => (await unsent()) === 0, 10_000, 5);
      expect(Date.now() - writtenAt).toBeLessThan(2000);
      expect(await queueDepth(url, unroutedName(exchange))).toBe(1);
    } finally {
      for (const holder of holders) await holder.rollback().catch(() => undefined);
      await other.close();
      await Promise.all(relays.splice(0).map((started) => started.stop()));
      await busy.close();
    }
  });

  test('the backlog and the age of the oldest unsent row are reported by /readyz (degraded when stale) and as metrics', async () => {
    // A relay whose broker is unreachable: rows stay unsent.
    const away = createBroker({ url: 'amqp://guest:guest@127.0.0.1:1', service: 'relay-test', logger: silentLogger, exchange, registry: new Registry(), reconnectDelayMs: { initial: 5000, max: 5000 } });
    brokers.push(away);
    void away.start().catch(() => undefined);
    const started = relay({ broker: away, staleAfterMs: 300 });
    await writeEvents(db.orm, 3);
    const fresh = await started.readiness().check();
    expect(fresh).toMatchObject({ unsent: 3 });
    expect(started.readiness().critical).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const stale = await Promise.resolve()
      .then(() => started.readiness().check())
      .catch((error: unknown) => error);
    expect(stale).toBeInstanceOf(ReadinessError);
    expect((stale as ReadinessError).details).toMatchObject({ unsent: 3 });
    expect((stale as ReadinessError).details.oldestUnsentSeconds).toBeGreaterThanOrEqual(0.5);
    const metrics = await away.metrics.registry.getMetricsAsJSON();
    expect(metrics.find((metric) => metric.name === 'messaging_outbox_backlog')?.values[0]?.value).toBe(3);
    expect(metrics.find((metric) => metric.name === 'messaging_outbox_oldest_unsent_seconds')?.values[0]?.value).toBeGreaterThanOrEqual(0.5);
  });
});
