// The trace context across the broker: outbox row → relay's publish → consumer, through retries and
// a DLQ replay. The SDK runs in-process with an in-memory exporter (what the preload does with OTLP).
import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import amqp from 'amqplib';
import { testUrls } from '@academy/testing';
import { inSpan } from '@academy/kit';
import { consume, createBroker, dlqName, outboxInsertSql, outboxRow, recordEvent, replayDeadLetters, retryQueueName, startOutboxRelay, type Broker, type Consumer, type OutboxRelay } from '../src/index.ts';
import { counts, createMessagingDb, deleteQueues, queueDepth, recordEffect, silentLogger, testTopology, validEnvelope, waitUntil, type TestDb } from './support.ts';

const url = testUrls.rabbitmq;
const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const contextManager = new AsyncLocalStorageContextManager().enable();

const spansNamed = (name: string) => exporter.getFinishedSpans().filter((span) => span.name === name);
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('trace context through the outbox, the broker and the consumer', () => {
  let db: TestDb;
  let broker: Broker;
  let relay: OutboxRelay | null = null;
  let consumer: Consumer | null = null;
  let topology: ReturnType<typeof testTopology>;

  beforeAll(async () => {
    trace.setGlobalTracerProvider(provider);
    context.setGlobalContextManager(contextManager);
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    db = await createMessagingDb('tracing');
  });
  afterAll(async () => {
    await db.close();
    trace.disable();
    context.disable();
    propagation.disable();
  });

  const start = async (purpose: string, handler: Parameters<typeof consume>[1]['handlers']['employee.deleted'], options: { maxAttempts?: number } = {}) => {
    topology = testTopology(purpose);
    broker = createBroker({ url, service: 'tracing-test', logger: silentLogger, exchange: topology.exchange });
    await broker.start();
    await db.orm.em.getConnection().execute('truncate outbox, inbox, handler_effects');
    exporter.reset();
    consumer = await consume(broker, { orm: db.orm, queue: topology.queue, handlers: { 'employee.deleted': handler }, retryDelaysMs: [100], ...options });
    relay = startOutboxRelay({ orm: db.orm, broker });
  };
  afterEach(async () => {
    await relay?.stop();
    await consumer?.stop();
    await broker.close();
    await deleteQueues(url, [topology.queue, dlqName(topology.queue), retryQueueName(topology.queue, 100)], topology.exchange);
  });

  /** Writes one event inside a span standing for the request, by `recordEvent` or by raw SQL; returns that span's trace id. */
  const writeInRequest = (id: number, how: 'entity' | 'sql') =>
    inSpan('POST /request', {}, async (span) => {
      const em = db.orm.em.fork();
      if (how === 'entity') {
        recordEvent(em, 'employee.deleted', { id }, { source: 'test' });
        await em.flush();
      } else {
        await em.getConnection().execute(outboxInsertSql(), outboxRow(validEnvelope(id)));
      }
      return { traceId: span.spanContext().traceId, spanId: span.spanContext().spanId };
    });

  test.each(['entity', 'sql'] as const)('the handler runs in the writer’s trace: request → publish (from the commit) → process (outbox row written by %s)', async (how) => {
    await start(`trace-${how}`, (em, event) => recordEffect(em, event, topology.queue));
    const request = await writeInRequest(1, how);
    const [stored] = await db.orm.em.fork().getConnection().execute<{ trace_context: Record<string, string> }[]>('select trace_context from outbox');
    expect(stored.trace_context.traceparent).toBe(`00-${request.traceId}-${request.spanId}-01`);

    await waitUntil('handled', async () => (await counts(db.orm)).inbox === 1, 10_000);
    await waitUntil('consumer span ended', () => spansNamed('process employee.deleted').length === 1, 5_000);
    const [publish] = spansNamed('publish employee.deleted');
    const [processed] = spansNamed('process employee.deleted');
    expect(publish.spanContext().traceId).toBe(request.traceId);
    expect(parentOf(publish)).toBe(request.spanId);
    expect(processed.spanContext().traceId).toBe(request.traceId);
    expect(parentOf(processed)).toBe(publish.spanContext().spanId);
    expect(publish.attributes['academy.outbox.wait_ms']).toEqual(expect.any(Number));
  });

  test('an event written outside any trace is published without trace headers and its handler starts its own root', async () => {
    await start('untraced', (em, event) => recordEffect(em, event, topology.queue));
    const em = db.orm.em.fork();
    recordEvent(em, 'employee.deleted', { id: 2 }, { source: 'test' });
    await em.flush();
    await waitUntil('consumer span ended', () => spansNamed('process employee.deleted').length === 1, 10_000);
    expect(spansNamed('publish employee.deleted')).toHaveLength(0);
    expect(parentOf(spansNamed('process employee.deleted')[0])).toBeUndefined();
  });

  test('an event of a trace the sampler left out gets no publish span: its message carries the writer’s context as stored, and nothing is recorded', async () => {
    let seen: { traceId?: string; recording?: boolean } = {};
    await start('sampled-out', async (em, event) => {
      const span = trace.getActiveSpan();
      seen = { traceId: span?.spanContext().traceId, recording: span?.isRecording() };
      await recordEffect(em, event, topology.queue);
    });
    // A tap on the exchange reads the message's headers.
    const connection = await amqp.connect(url);
    const channel = await connection.createChannel();
    const { queue: tap } = await channel.assertQueue('', { exclusive: true });
    await channel.bindQueue(tap, topology.exchange, 'employee.deleted');
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00';
    await db.orm.em.fork().getConnection().execute(outboxInsertSql(), [...outboxRow(validEnvelope(5)).slice(0, 3), JSON.stringify({ traceparent })]);
    await waitUntil('handled', async () => (await counts(db.orm)).inbox === 1, 10_000);
    const message = await channel.get(tap, { noAck: true });
    await connection.close();
    expect(message && message.properties.headers?.traceparent).toBe(traceparent);
    expect(seen).toEqual({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', recording: false });
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });

  test('a retried delivery stays in the trace: each attempt is a child of the same publish, the failed one marked as an error', async () => {
    let calls = 0;
    await start('retry', async (em, event) => {
      if (++calls === 1) throw new Error('first attempt fails');
      await recordEffect(em, event, topology.queue);
    });
    const request = await writeInRequest(3, 'entity');
    await waitUntil('two attempts', () => spansNamed('process employee.deleted').length === 2, 10_000);
    const [publish] = spansNamed('publish employee.deleted');
    const attempts = spansNamed('process employee.deleted').sort((a, b) => Number(a.attributes['messaging.rabbitmq.attempt']) - Number(b.attributes['messaging.rabbitmq.attempt']));
    expect(attempts.map((span) => [span.spanContext().traceId, parentOf(span), span.attributes['messaging.rabbitmq.attempt'], span.status.code])).toEqual([
      [request.traceId, publish.spanContext().spanId, 1, 2],
      [request.traceId, publish.spanContext().spanId, 2, 0],
    ]);
  });

  test('a DLQ replay is a trace of its own linked to the original, and the replayed handling links to the original too', async () => {
    let broken = true;
    await start(
      'replay',
      async (em, event) => {
        if (broken) throw new Error('broken');
        await recordEffect(em, event, topology.queue);
      },
      { maxAttempts: 1 },
    );
    const request = await writeInRequest(4, 'entity');
    await waitUntil('parked in the DLQ', async () => (await queueDepth(url, dlqName(topology.queue))) === 1, 10_000);
    broken = false;
    expect(await replayDeadLetters(url, topology.queue)).toEqual({ replayed: 1, kept: 0 });
    await waitUntil('handled after the replay', () => spansNamed('process employee.deleted').length === 2, 10_000);

    const [replay] = spansNamed(`dlq replay ${topology.queue}`);
    expect(replay.spanContext().traceId).not.toBe(request.traceId);
    expect(replay.links.map((link) => link.context.traceId)).toEqual([request.traceId]);
    const after = spansNamed('process employee.deleted').find((span) => span.spanContext().traceId === replay.spanContext().traceId)!;
    expect(parentOf(after)).toBe(replay.spanContext().spanId);
    expect(after.links.map((link) => link.context.traceId)).toEqual([request.traceId]);
    expect(await counts(db.orm)).toMatchObject({ inbox: 1, effects: 1 });
  });
});
