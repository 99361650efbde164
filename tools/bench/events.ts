// `npm run bench:events`: the event pipeline end to end (outbox row committed → relay → RabbitMQ →
// consumer → handler done, inbox row written) against the naive baseline measured in the same run:
// raw amqplib publishing the same messages, waiting for each confirm. Then p99 outbox-to-handler
// latency at a steady 500 events/s. Starts the test servers if needed and stops what it started.
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import amqp from 'amqplib';
import { createOrm, dropDatabase, ensureDatabase } from '@academy/db';
import { ensureInfra, stopInfra, urls } from '@academy/infra';
import { createLogger } from '@academy/kit';
import { createEnvelope } from '@academy/contracts';
import { consume, createBroker, dlqName, messagingEntities, recordEvent, startOutboxRelay, type OutboxRelay } from '@academy/messaging';

const TOTAL = Number(process.env.BENCH_EVENTS ?? 20_000);
const STEADY_RATE = 500;
const STEADY_SECONDS = Number(process.env.BENCH_STEADY_SECONDS ?? 10);

const infra = await ensureInfra('test', (line) => console.log(`[infra] ${line}`), ['postgres', 'rabbitmq']);
const { postgres, rabbitmq } = urls('test');
const suffix = randomBytes(4).toString('hex');
const databaseUrl = `${postgres}/bench_events_${suffix}`;
const exchange = `academy.events.bench-${suffix}`;
const queue = `bench-${suffix}.events`;
const baselineExchange = `${exchange}.baseline`;
const baselineQueue = `bench-${suffix}.baseline`;
const logger = createLogger('bench-events', 'warn');
const rate = (count: number, ms: number) => Math.round((count / ms) * 1000);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

await ensureDatabase(databaseUrl);
const orm = await createOrm({ clientUrl: databaseUrl, entities: messagingEntities, migrations: [], poolMax: 20 });
await orm.schema.create();
await orm.em.getConnection().execute(`create table bench_effects (event_id uuid primary key, employee_id int not null)`);

// Same bodies for both runs: envelopes as the relay publishes them.
const envelopes = Array.from({ length: TOTAL }, (_, i) => createEnvelope('employee.deleted', { id: i + 1 }, { source: 'bench' }));

async function baseline(): Promise<number> {
  const connection = await amqp.connect(rabbitmq);
  try {
    const channel = await connection.createConfirmChannel();
    await channel.assertExchange(baselineExchange, 'topic', { durable: true });
    await channel.assertQueue(baselineQueue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    await channel.bindQueue(baselineQueue, baselineExchange, 'employee.deleted');
    const started = performance.now();
    for (const envelope of envelopes) {
      channel.publish(baselineExchange, envelope.type, Buffer.from(JSON.stringify(envelope)), {
        persistent: true,
        mandatory: true,
        messageId: envelope.id,
        contentType: 'application/json',
      });
      await channel.waitForConfirms();
    }
    const elapsed = performance.now() - started;
    await channel.deleteQueue(baselineQueue);
    await channel.deleteExchange(baselineExchange);
    return elapsed;
  } finally {
    await connection.close();
  }
}

const handledAt = new Map<string, number>();
const broker = createBroker({ url: rabbitmq, service: 'bench-events', logger, exchange });
await broker.start();
const consumer = await consume(broker, {
  orm,
  queue,
  prefetch: 200,
  handlers: {
    'employee.deleted': async (em, event) => {
      await em.getConnection().execute(`insert into bench_effects (event_id, employee_id) values (?, ?)`, [event.id, event.data.id], 'run', em.getTransactionContext());
      handledAt.set(event.id, performance.now());
    },
  },
});
const pipelineParts: { relay?: OutboxRelay } = {};

async function inboxCount(): Promise<number> {
  const [row] = await orm.em.fork().getConnection().execute<{ count: string }[]>(`select count(*) as count from inbox`);
  return Number(row.count);
}

async function waitForInbox(count: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await inboxCount()) < count) {
    if (Date.now() > deadline) throw new Error(`only ${await inboxCount()} of ${count} events handled after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * 20,000 events committed to the outbox (in transactions of 100, before the relay starts), then the
 * clock runs from the relay's start until the last handler's inbox row is committed.
 */
async function pipeline(): Promise<{ writeMs: number; pipelineMs: number }> {
  const writeStarted = performance.now();
  for (let offset = 0; offset < TOTAL; offset += 100) {
    const em = orm.em.fork();
    for (let i = offset; i < Math.min(TOTAL, offset + 100); i++) recordEvent(em, 'employee.deleted', { id: i + 1 }, { source: 'bench' });
    await em.flush();
  }
  const writeMs = performance.now() - writeStarted;
  const started = performance.now();
  pipelineParts.relay = startOutboxRelay({ orm, broker });
  await waitForInbox(TOTAL, 120_000);
  return { writeMs, pipelineMs: performance.now() - started };
}

/** One transaction every 10 ms carrying the events due (500/s); latency = commit → handler done. */
async function steady(): Promise<number[]> {
  const before = await inboxCount();
  const committedAt = new Map<string, number>();
  const total = STEADY_RATE * STEADY_SECONDS;
  const started = performance.now();
  let written = 0;
  while (written < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * STEADY_RATE)) - written;
    if (due > 0) {
      const em = orm.em.fork();
      const ids = Array.from({ length: due }, (_, i) => recordEvent(em, 'employee.deleted', { id: TOTAL + written + i + 1 }, { source: 'bench' }).id);
      await em.flush();
      const now = performance.now();
      for (const id of ids) committedAt.set(id, now);
      written += due;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await waitForInbox(before + total, 30_000);
  return [...committedAt].map(([id, at]) => (handledAt.get(id) ?? Infinity) - at).sort((a, b) => a - b);
}

try {
  // Node, PostgreSQL and RabbitMQ share this machine's cores: the figures only compare within one run.
  console.log(`events benchmark: ${TOTAL} events, PostgreSQL and RabbitMQ of the test profile, ${cpus().length} cores, load ${loadavg()[0].toFixed(1)}`);
  const baselineMs = await baseline();
  const { writeMs, pipelineMs } = await pipeline();
  const baselineRate = rate(TOTAL, baselineMs);
  const pipelineRate = rate(TOTAL, pipelineMs);
  console.log(`baseline  raw amqplib, one confirm per message: ${baselineRate} msg/s (${Math.round(baselineMs)} ms)`);
  console.log(`pipeline  outbox (committed) → relay → broker → handler + inbox: ${pipelineRate} events/s (${Math.round(pipelineMs)} ms)`);
  console.log(`          (writing the ${TOTAL} outbox rows beforehand, 100 per transaction: ${rate(TOTAL, writeMs)} events/s, not counted)`);
  console.log(`ratio     pipeline / baseline: ${(pipelineRate / baselineRate).toFixed(2)} (target ≥ 1.0)`);
  const latencies = await steady();
  const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
  console.log(
    `latency   at a steady ${STEADY_RATE} events/s for ${STEADY_SECONDS} s (${latencies.length} events), commit → handler done: ` +
      `p50 ${fmt(percentile(latencies, 50))}, p99 ${fmt(percentile(latencies, 99))}, max ${fmt(latencies[latencies.length - 1])} (target p99 < 250 ms)`,
  );
} finally {
  await pipelineParts.relay?.stop();
  await consumer.stop();
  const connection = await amqp.connect(rabbitmq);
  const channel = await connection.createChannel();
  for (const name of [queue, dlqName(queue), `${queue}.retry.1000ms`, `${queue}.retry.5000ms`, `${queue}.retry.30000ms`]) await channel.deleteQueue(name).catch(() => undefined);
  await channel.deleteExchange(exchange).catch(() => undefined);
  await connection.close().catch(() => undefined);
  await broker.close();
  await orm.close();
  await dropDatabase(databaseUrl);
  if (infra.started.length) await stopInfra('test', infra.started);
}
