// `npm run bench:events`: the event pipeline end to end (outbox row committed → relay → RabbitMQ →
// consumer → handler done, inbox row written) against the naive baseline measured in the same run:
// raw amqplib publishing the same messages, waiting for each confirm; the consumer with its default
// (waiting events share a transaction), with batchSize 1 and with batchSize 50. Then commit-to-handler latency at a steady
// 500 events/s: rows written by `recordEvent` (MikroORM), and rows written by raw SQL as hours-bank
// writes them, with the relay woken by LISTEN/NOTIFY and, for comparison, by its poll alone. Last,
// how long events of a type no queue is bound for take to leave the outbox. Starts the test
// servers if needed and stops what it started. BENCH_EVENTS (20000) and BENCH_STEADY_SECONDS (10)
// shorten it; BENCH_LATENCY_ONLY=1 runs the latency phases alone (after a warm-up printed as such, BENCH_WARMUP_SECONDS, 10; BENCH_PER_SECOND=1: each phase second by second), BENCH_STEADY=orm,orm1,orm50,sql,poll
// only the latency phases named, in that order (`orm:nagle`, `orm1:nagle`, `sql:nagle`: the same on a connection
// with Nagle's algorithm on, as before issue 32's fix). Each latency phase also prints the CPU spent per event by this
// process (writer, relay and consumer: the pipeline) and by the database's PostgreSQL backends, the
// figure a loaded machine moves least; `node --cpu-prof tools/bench/events.ts` profiles the pipeline.
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import amqp from 'amqplib';
import pg from 'pg';
import { createOrm, dropDatabase, ensureDatabase } from '@academy/db';
import type { PostgreSqlConnection } from '@mikro-orm/postgresql';
import { ensureInfra, stopInfra, urls } from '@academy/infra';
import { createLogger } from '@academy/kit';
import { createEnvelope } from '@academy/contracts';
import { consume, createBroker, type Broker, DEFAULT_BATCH_SIZE, dlqName, messagingEntities, outboxInsertSql, outboxRow, recordEvent, retryQueueName, startOutboxRelay, type Consumer } from '@academy/messaging';
import { percentile, postgresCpu, postgresCpuDelta } from './support.ts';

const TOTAL = Number(process.env.BENCH_EVENTS ?? 20_000);
const STEADY_RATE = 500;
const STEADY_SECONDS = Number(process.env.BENCH_STEADY_SECONDS ?? 10);

const infra = await ensureInfra('test', (line) => console.log(`[infra] ${line}`), ['postgres', 'rabbitmq']);
const { postgres, rabbitmq } = urls('test');
const suffix = randomBytes(4).toString('hex');
const databaseUrl = `${postgres}/bench_events_${suffix}`;
const exchange = `academy.events.bench-${suffix}`;
const queuePrefix = `bench-${suffix}`;
const baselineExchange = `${exchange}.baseline`;
const baselineQueue = `bench-${suffix}.baseline`;
const unroutedQueue = `${exchange}.unrouted`;
const logger = createLogger('bench-events', 'warn');
const rate = (count: number, ms: number) => Math.round((count / ms) * 1000);

await ensureDatabase(databaseUrl);
const orm = await createOrm({ clientUrl: databaseUrl, entities: messagingEntities, migrations: [], poolMax: 20 });
await orm.schema.create();
await orm.em.getConnection().execute(`create table bench_effects (event_id uuid primary key, employee_id int not null)`);
/** The pipeline's pg pool (writer, relay and consumer share it), watched for connections opened during a phase. */
const pipelinePool = await (orm.em.getConnection() as PostgreSqlConnection).getNativeClient();
const poolConnects: number[] = [];
pipelinePool.on('connect', () => poolConnects.push(performance.now()));
/** A connection of its own to read the PostgreSQL backends' CPU (its own backend excluded). */
const cpuDb = new pg.Pool({ connectionString: databaseUrl, max: 1 });

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
/** When each event's handler started (its transaction begun, its inbox row written). */
const handlerStartedAt = new Map<string, number>();
/** When the relay handed each event to the broker (claimed), and when the broker confirmed it. */
const claimedAt = new Map<string, number>();
const confirmedAt = new Map<string, number>();
/**
 * The pipeline's broker (one connection: the relay publishes on it, the consumer consumes on it, as in
 * a service), its publishes timed so the stages of an event's way show apart (claimed, confirmed).
 * `noDelay: false` is the connection before issue 32's fix (amqplib's default, Nagle's algorithm on).
 */
async function timedBroker(noDelay: boolean): Promise<Broker> {
  const broker = createBroker({ url: rabbitmq, service: 'bench-events', logger, exchange, noDelay });
  await broker.start();
  const publishEach = broker.publishEach.bind(broker);
  broker.publishEach = async (envelopes, routing) => {
    const now = performance.now();
    for (const envelope of envelopes) claimedAt.set(envelope.id, now);
    const outcomes = await publishEach(envelopes, routing);
    const confirmed = performance.now();
    for (const envelope of envelopes) confirmedAt.set(envelope.id, confirmed);
    return outcomes;
  };
  return broker;
}
const broker = await timedBroker(true);
/** Opened by the first phase that compares with Nagle's algorithm on. */
let nagleBroker: Broker | null = null;
const queues: string[] = [];

/** A consumer on its own queue (one per phase, so each event is consumed once). */
async function startConsumer(name: string, batchSize: number | undefined, broker: Broker): Promise<{ queue: string; consumer: Consumer }> {
  const queue = `${queuePrefix}.${name}`;
  queues.push(queue, dlqName(queue), ...[1000, 5000, 30000].map((delay) => retryQueueName(queue, delay)));
  const consumer = await consume(broker, {
    orm,
    queue,
    prefetch: 200,
    batchSize,
    handlers: {
      'employee.deleted': async (em, event) => {
        handlerStartedAt.set(event.id, performance.now());
        await em.getConnection().execute(`insert into bench_effects (event_id, employee_id) values (?, ?)`, [event.id, event.data.id], 'run', em.getTransactionContext());
        handledAt.set(event.id, performance.now());
      },
    },
  });
  return { queue, consumer };
}

async function stopConsumer({ queue, consumer }: { queue: string; consumer: Consumer }): Promise<void> {
  await consumer.stop();
  const connection = await amqp.connect(rabbitmq);
  const channel = await connection.createChannel();
  await channel.unbindQueue(queue, exchange, 'employee.deleted');
  await connection.close();
}

async function inboxCount(queue: string): Promise<number> {
  const [row] = await orm.em.fork().getConnection().execute<{ count: string }[]>(`select count(*) as count from inbox where consumer = ?`, [queue]);
  return Number(row.count);
}

async function waitForInbox(queue: string, count: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await inboxCount(queue)) < count) {
    if (Date.now() > deadline) throw new Error(`only ${await inboxCount(queue)} of ${count} events handled after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let nextEmployeeId = 1;

/** Writes `count` events, `perTransaction` per transaction, as use cases would; returns the commit time of each. */
async function writeEvents(count: number, perTransaction: number): Promise<Map<string, number>> {
  const committedAt = new Map<string, number>();
  for (let offset = 0; offset < count; offset += perTransaction) {
    const em = orm.em.fork();
    const ids = Array.from({ length: Math.min(perTransaction, count - offset) }, () => recordEvent(em, 'employee.deleted', { id: nextEmployeeId++ }, { source: 'bench' }).id);
    await em.flush();
    const now = performance.now();
    for (const id of ids) committedAt.set(id, now);
  }
  return committedAt;
}

/**
 * 20,000 events committed to the outbox (100 per transaction) while no relay runs, then the clock
 * runs from the relay's start until the last handler's inbox row is committed: the relay claims,
 * publishes and marks sent, the consumer handles and writes its inbox rows.
 */
async function pipeline(name: string, batchSize: number | undefined): Promise<{ writeMs: number; pipelineMs: number }> {
  const writeStarted = performance.now();
  await writeEvents(TOTAL, 100);
  const writeMs = performance.now() - writeStarted;
  const started = performance.now();
  const phase = await startConsumer(name, batchSize, broker);
  const relay = startOutboxRelay({ orm, broker });
  await waitForInbox(phase.queue, TOTAL, 180_000);
  const pipelineMs = performance.now() - started;
  await relay.stop();
  await stopConsumer(phase);
  return { writeMs, pipelineMs };
}

/**
 * Writes `count` events in one transaction by raw SQL, as hours-bank's bank store does (no MikroORM
 * unit of work, so no in-process nudge of the relay); returns the commit time of each.
 */
async function writeEventsSql(count: number): Promise<Map<string, number>> {
  const envelopes = Array.from({ length: count }, () => createEnvelope('employee.deleted', { id: nextEmployeeId++ }, { source: 'bench' }));
  await orm.em.getConnection().execute(
    `${outboxInsertSql({ eventId: 'v.event_id', type: 'v.type', envelope: 'v.envelope', traceContext: 'v.trace_context' })}
     from (values ${envelopes.map(() => '(?::uuid, ?::text, ?::jsonb, ?::jsonb)').join(', ')}) as v(event_id, type, envelope, trace_context)`,
    envelopes.flatMap((envelope) => outboxRow(envelope)),
  );
  const now = performance.now();
  return new Map(envelopes.map((envelope) => [envelope.id, now]));
}

/** PostgreSQL's background work so far: checkpoints (the server's) and autovacuum/autoanalyze passes (this database's tables). */
async function databaseBackground(): Promise<{ checkpoints: number; autovacuums: number }> {
  const { rows } = await cpuDb.query<{ checkpoints: number; autovacuums: number }>(
    `select (select checkpoints_timed + checkpoints_req from pg_stat_bgwriter)::int as checkpoints,
            (select coalesce(sum(autovacuum_count + autoanalyze_count), 0) from pg_stat_user_tables)::int as autovacuums`,
  );
  return rows[0]!;
}

type Writer = 'orm' | 'sql';
let steadyRuns = 0;

/** One transaction every 10 ms carrying the events due (500/s); latency = commit → handler done. */
async function steady(name: string, batchSize: number | undefined, writer: Writer, listen: boolean, broker: Broker, seconds = STEADY_SECONDS): Promise<{ handler: number[]; relay: number[]; stages: Record<string, number[]>; cpu: { process: number; postgres: number } }> {
  // A queue of its own each run (a phase named twice in BENCH_STEADY gets two).
  const phase = await startConsumer(`steady-${name.replace(':', '-')}-${++steadyRuns}`, batchSize, broker);
  // A tap: a plain exclusive queue read with no acks and no database work, so the relay's share (commit → delivered by the broker) shows apart from the consumer's.
  const tapConnection = await amqp.connect(rabbitmq, { noDelay: true });
  const tap = await tapConnection.createChannel();
  const { queue: tapQueue } = await tap.assertQueue('', { exclusive: true, autoDelete: true });
  await tap.bindQueue(tapQueue, exchange, 'employee.deleted');
  const deliveredAt = new Map<string, number>();
  await tap.consume(tapQueue, (message) => message && deliveredAt.set(String(message.properties.messageId), performance.now()), { noAck: true });
  const relay = startOutboxRelay({ orm, broker, listen });
  await relay.listening;
  const committedAt = new Map<string, number>();
  const total = STEADY_RATE * seconds;
  const cpuBefore = process.cpuUsage();
  const postgresBefore = await postgresCpu(cpuDb, true);
  const backgroundBefore = await databaseBackground();
  const started = performance.now();
  // Each second of the phase: the event loop's worst delay, the pool's size and connections opened (BENCH_PER_SECOND).
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  const perSecond: { loopMaxMs: number; cpuMs: number; pool: number; connects: number }[] = [];
  let cpuMark = process.cpuUsage();
  let connectsMark = poolConnects.length;
  const sampler = setInterval(() => {
    const cpuNow = process.cpuUsage(cpuMark);
    cpuMark = process.cpuUsage();
    // Opened since the last sample (a starved event loop runs this timer late: a sample may cover more than a second).
    const connects = poolConnects.length - connectsMark;
    connectsMark = poolConnects.length;
    perSecond.push({ loopMaxMs: loopDelay.max / 1e6, cpuMs: (cpuNow.user + cpuNow.system) / 1000, pool: pipelinePool.totalCount, connects });
    loopDelay.reset();
  }, 1000);
  let written = 0;
  while (written < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * STEADY_RATE)) - written;
    if (due > 0) {
      for (const [id, at] of writer === 'orm' ? await writeEvents(due, due) : await writeEventsSql(due)) committedAt.set(id, at);
      written += due;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await waitForInbox(phase.queue, total, 60_000);
  clearInterval(sampler);
  loopDelay.disable();
  const used = process.cpuUsage(cpuBefore);
  const postgresUsed = postgresCpuDelta(postgresBefore, await postgresCpu(cpuDb, true));
  const backgroundAfter = await databaseBackground();
  await relay.stop();
  await stopConsumer(phase);
  await tapConnection.close();
  const since = (at: Map<string, number>) => [...committedAt].map(([id, committed]) => (at.get(id) ?? Infinity) - committed).sort((a, b) => a - b);
  const cpu = { process: (used.user + used.system) / 1000 / total, postgres: postgresUsed / total };
  const stages = { claimed: since(claimedAt), confirmed: since(confirmedAt), 'handler started': since(handlerStartedAt) };
  if (process.env.BENCH_PER_SECOND) {
    // The stages' p99 by the second of the phase the event was committed in: a start-of-run effect shows as its first seconds.
    const bySecond = new Map<number, string[]>();
    for (const [id, committed] of committedAt) {
      const second = Math.floor((committed - started) / 1000);
      if (!bySecond.has(second)) bySecond.set(second, []);
      bySecond.get(second)!.push(id);
    }
    console.log(
      `          ${name}: during the phase, ${backgroundAfter.checkpoints - backgroundBefore.checkpoints} checkpoints, ` +
        `${backgroundAfter.autovacuums - backgroundBefore.autovacuums} autovacuum or autoanalyze passes on this database's tables; by the second of its commit:`,
    );
    for (const [second, ids] of [...bySecond].sort(([a], [b]) => a - b)) {
      const p99 = (at: Map<string, number>) => percentile(ids.map((id) => (at.get(id) ?? Infinity) - committedAt.get(id)!).sort((a, b) => a - b), 99).toFixed(1);
      const sample = perSecond[second];
      console.log(
        `          second ${second}: ${ids.length} events, p99 claimed ${p99(claimedAt)}, confirmed ${p99(confirmedAt)}, tap ${p99(deliveredAt)}, handler started ${p99(handlerStartedAt)}, done ${p99(handledAt)} ms` +
          (sample ? `; loop delay max ${sample.loopMaxMs.toFixed(0)} ms, process CPU ${sample.cpuMs.toFixed(0)} ms, pool ${sample.pool} (${sample.connects} opened)` : ''),
      );
    }
  }
  return { handler: since(handledAt), relay: since(deliveredAt), stages, cpu };
}

/**
 * 1,000 events of a type no queue is bound for any more (the phases above unbound theirs), committed at once:
 * how long until the outbox holds none of them unsent (the relay gives up waiting after 5 s).
 */
async function unrouted(): Promise<{ drainedMs: number | null; unsent: number; unroutedDepth: number | null }> {
  const count = 1000;
  const em = orm.em.fork();
  for (let i = 0; i < count; i++) {
    recordEvent(em, 'employee.deleted', { id: nextEmployeeId++ }, { source: 'bench' });
  }
  const relay = startOutboxRelay({ orm, broker });
  await em.flush();
  const started = performance.now();
  const unsent = async () => {
    const [row] = await orm.em.fork().getConnection().execute<{ count: string }[]>(`select count(*) as count from outbox where published_at is null`);
    return Number(row.count);
  };
  let left = await unsent();
  while (left > 0 && performance.now() - started < 5000) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    left = await unsent();
  }
  const drainedMs = left === 0 ? performance.now() - started : null;
  await relay.stop();
  const connection = await amqp.connect(rabbitmq);
  const channel = await connection.createChannel();
  channel.on('error', () => undefined);
  const unroutedDepth = await channel.checkQueue(unroutedQueue).then(
    (queue) => queue.messageCount,
    () => null,
  );
  await connection.close().catch(() => undefined);
  return { drainedMs, unsent: left, unroutedDepth };
}

try {
  // Node, PostgreSQL and RabbitMQ share this machine's cores: the figures only compare within one run.
  console.log(`events benchmark: ${TOTAL} events, PostgreSQL and RabbitMQ of the test profile, ${cpus().length} cores, load ${loadavg()[0].toFixed(1)}`);
  // BENCH_LATENCY_ONLY=1 skips the throughput phases (a quicker before/after of the latency figures).
  if (!process.env.BENCH_LATENCY_ONLY) {
    const baselineMs = await baseline();
    const baselineRate = rate(TOTAL, baselineMs);
    console.log(`baseline  raw amqplib, one confirm per message: ${baselineRate} msg/s (${Math.round(baselineMs)} ms)`);
    for (const [name, batchSize, label] of [
      ['default', undefined, `consumer default (batchSize ${DEFAULT_BATCH_SIZE}: waiting events share a transaction)`],
      ['single', 1, 'consumer batchSize 1 (one transaction per event)'],
      ['batched', 50, 'consumer batchSize 50'],
    ] as const) {
      const { writeMs, pipelineMs } = await pipeline(name, batchSize);
      const pipelineRate = rate(TOTAL, pipelineMs);
      console.log(
        `pipeline  outbox (committed) → relay → broker → handler + inbox, ${label}: ${pipelineRate} events/s (${Math.round(pipelineMs)} ms), ` +
          `ratio to baseline ${(pipelineRate / baselineRate).toFixed(2)} (target ≥ 1.0)`,
      );
      console.log(`          (the ${TOTAL} outbox rows were written beforehand, 100 per transaction, at ${rate(TOTAL, writeMs)} events/s)`);
    }
  }
  const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
  const only = process.env.BENCH_STEADY?.split(',');
  // `…:nagle`: the same phase on a connection with Nagle's algorithm on (before issue 32's fix), interleaved so both see the same load.
  const phases = [
    ['orm', undefined, 'orm', true, `recordEvent, consumer default (batchSize ${DEFAULT_BATCH_SIZE})`],
    ['orm:nagle', undefined, 'orm', true, `recordEvent, consumer default (batchSize ${DEFAULT_BATCH_SIZE}), Nagle on (before)`],
    ['orm1', 1, 'orm', true, 'recordEvent, consumer batchSize 1'],
    ['orm1:nagle', 1, 'orm', true, 'recordEvent, consumer batchSize 1, Nagle on (before)'],
    ['orm50', 50, 'orm', true, 'recordEvent, consumer batchSize 50'],
    ['sql', undefined, 'sql', true, 'raw SQL as hours-bank, consumer default, relay woken by LISTEN/NOTIFY'],
    ['sql:nagle', undefined, 'sql', true, 'raw SQL as hours-bank, consumer default, relay woken by LISTEN/NOTIFY, Nagle on (before)'],
    ['poll', undefined, 'sql', false, 'raw SQL as hours-bank, consumer default, relay poll only (250 ms)'],
  ] as const;
  // A warm-up, printed as such and not judged: the first phase of a run paid for what a service that has
  // run a while has done already (V8's optimizing of the pipeline's code, the pool's connections and their
  // prepared statements): about twice the CPU per event, and a worse tail, of the same phase run again later.
  // BENCH_WARMUP_SECONDS (10; 0: none): the warm-up's own line is the cold figure. 3 s was not enough: after it the first
  // measured phase still cost the pipeline process 0.97 ms of CPU an event against 0.62 for the same phase run next.
  const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 10);
  const print = (label: string, seconds: number, { handler, relay, stages, cpu }: Awaited<ReturnType<typeof steady>>) => {
    console.log(
      `latency   at a steady ${STEADY_RATE} events/s for ${seconds} s (${handler.length} events, ${label}), commit → handler done: ` +
        `p50 ${fmt(percentile(handler, 50))}, p99 ${fmt(percentile(handler, 99))}, max ${fmt(handler[handler.length - 1])} (target p50 < 15 ms, p99 < 60 ms); ` +
        `of which commit → delivered by the broker (a raw tap): p50 ${fmt(percentile(relay, 50))}, p99 ${fmt(percentile(relay, 99))}; ` +
        `CPU per event: pipeline process ${cpu.process.toFixed(3)} ms, PostgreSQL ${cpu.postgres.toFixed(3)} ms (load ${loadavg()[0].toFixed(1)})`,
    );
    console.log(`          stages from the commit, p50 / p99: ${Object.entries(stages).map(([stage, times]) => `${stage} ${fmt(percentile(times, 50))} / ${fmt(percentile(times, 99))}`).join(', ')}`);
  };
  if (warmupSeconds > 0) {
    const label = `WARM-UP, not judged: the run's first seconds, recordEvent, consumer default (batchSize ${DEFAULT_BATCH_SIZE})`;
    print(label, warmupSeconds, await steady('warm-up', undefined, 'orm', true, broker, warmupSeconds));
  }
  // BENCH_STEADY runs the phases it names, in its order.
  for (const [name, batchSize, writer, listen, label] of only ? only.flatMap((wanted) => phases.filter(([name]) => name === wanted)) : phases) {
    const phaseBroker = name.endsWith(':nagle') ? (nagleBroker ??= await timedBroker(false)) : broker;
    print(label, STEADY_SECONDS, await steady(name, batchSize, writer, listen, phaseBroker));
  }
  const { drainedMs, unsent, unroutedDepth } = only ? { drainedMs: null, unsent: 0, unroutedDepth: null } : await unrouted();
  if (!only) console.log(
    `unrouted  1000 events of a type no queue is bound for: ` +
      (drainedMs === null ? `${unsent} still unsent after 5 s` : `all left the outbox in ${Math.round(drainedMs)} ms`) +
      (unroutedDepth === null ? ', no catch-all queue' : `, ${unroutedDepth} kept in the catch-all queue ${unroutedQueue}`),
  );
} finally {
  const connection = await amqp.connect(rabbitmq);
  const channel = await connection.createChannel();
  channel.on('error', () => undefined);
  for (const name of [...queues, unroutedQueue]) await channel.deleteQueue(name).catch(() => undefined);
  await channel.deleteExchange(exchange).catch(() => undefined);
  await channel.deleteExchange(`${exchange}.unrouted`).catch(() => undefined);
  await connection.close().catch(() => undefined);
  await broker.close();
  await nagleBroker?.close();
  await cpuDb.end();
  await orm.close();
  await dropDatabase(databaseUrl);
  if (infra.started.length) await stopInfra('test', infra.started);
}
