// Spans written to OTLP protobuf as they end (encoding.ts): the bytes are the SDK serializer's for the
// same spans, and the processor batches, bounds and flushes as the SDK's batch processor does.
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Context } from '@opentelemetry/api';
import { ExportResultCode, TraceState, type ExportResult } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOnSampler, TracerProvider, type ReadableSpan, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { describe, expect, test } from '@jest/globals';
import { EncodedBatch, EncodingSpanProcessor, sendingEncoded, type EncodedExporter } from '../src/encoding.ts';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';

/** A provider whose ended spans are handed to `processor` (the SDK's own objects, as a real processor sees them). */
function providerWith(processor: SpanProcessor) {
  return new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'encoding-test', 'service.version': '1.2.3', 'vcs.ref.head.revision': 'abc123', 'host.cores': 2 }),
    sampler: new AlwaysOnSampler(),
    spanProcessors: [processor],
  });
}

function collected(): { processor: SpanProcessor; spans: ReadableSpan[] } {
  const spans: ReadableSpan[] = [];
  return { spans, processor: { onStart: () => {}, onEnd: (span) => void spans.push(span), forceFlush: async () => {}, shutdown: async () => {} } };
}

/** Spans of every shape the lib makes, and more: kinds, attribute types, events, links, statuses, remote parents, trace state, long and non-ASCII strings. */
function recordSpans(provider: TracerProvider): void {
  const academy = provider.getTracer('academy');
  const pg = provider.getTracer('@opentelemetry/instrumentation-pg', '0.77.0');
  const remote: Context = trace.setSpanContext(ROOT_CONTEXT, { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED, isRemote: true, traceState: new TraceState('vendor=x,other=y') });
  const publish = academy.startSpan('publish employee.deleted', { kind: SpanKind.PRODUCER, startTime: new Date(Date.now() - 12), attributes: { 'messaging.system': 'rabbitmq', 'messaging.message.id': '7c3f0c9e-8d0e-4b7a-9a53-1f2e3d4c5b6a', 'academy.outbox.wait_ms': 12 } }, remote);
  publish.end();
  const process = academy.startSpan('process employee.deleted — ünïcödé ✓', {
    kind: SpanKind.CONSUMER,
    links: [{ context: publish.spanContext(), attributes: { 'academy.link': 'replayed from the DLQ' } }],
    attributes: { 'messaging.rabbitmq.attempt': 3, ratio: 0.25, big: 2 ** 40, negative: -7, ok: true, list: ['a', 'b'], mixed: [1, 'x', false], bytes: new Uint8Array([1, 2, 255]), nested: { a: 1, b: { c: 'd' } } as never },
  }, trace.setSpan(ROOT_CONTEXT, publish));
  const query = pg.startSpan('pg.query:INSERT bench', { kind: SpanKind.CLIENT, attributes: { 'db.query.text': `insert into t (a) values ${'($1), '.repeat(40)}($2)`, 'server.port': 25432 } }, trace.setSpan(ROOT_CONTEXT, process));
  query.setAttribute('long', 'x'.repeat(20_000));
  query.end();
  process.recordException(new Error('handler failed: ünïcödé'));
  process.setStatus({ code: SpanStatusCode.ERROR, message: 'handler failed' });
  process.end();
  academy.startSpan('internal root').end();
  academy.startSpan('ok', { kind: SpanKind.SERVER }).setStatus({ code: SpanStatusCode.OK }).end();
}

describe('EncodedBatch', () => {
  test("writes, span by span, the bytes the SDK's OTLP protobuf serializer writes for the same spans (every field, two scopes, long and non-ASCII strings)", () => {
    const { processor, spans } = collected();
    recordSpans(providerWith(processor));
    expect(spans).toHaveLength(5);
    const batch = new EncodedBatch();
    for (const span of spans) batch.add(span);
    expect(batch.count).toBe(5);
    const ours = Buffer.from(batch.request());
    const sdk = Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);
    expect(ours.length).toBe(sdk.length);
    expect(ours.equals(sdk)).toBe(true);
  });
});

/** An exporter that keeps what it is given and answers when told. */
function heldExporter() {
  const sent: { spans: number; body: Buffer; done: (result: ExportResult) => void }[] = [];
  const exporter: EncodedExporter = { export: (items, done) => void sent.push({ spans: items.length, body: Buffer.from(items.body), done }), shutdown: async () => {} };
  return { exporter, sent };
}
const OK: ExportResult = { code: ExportResultCode.SUCCESS };
const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

describe('EncodingSpanProcessor', () => {
  test('a batch leaves when it is full or after the delay, one export at a time; the bytes decode to what the SDK would send', async () => {
    const { exporter, sent } = heldExporter();
    const encoding = new EncodingSpanProcessor(exporter, { maxQueueSize: 100, maxExportBatchSize: 3, scheduledDelayMillis: 50, exportTimeoutMillis: 10_000 });
    const tracer = providerWith(encoding).getTracer('academy');
    for (let i = 0; i < 4; i++) tracer.startSpan(`span ${i}`).end();
    expect(sent.map((request) => request.spans)).toEqual([3]);
    await tick(80);
    // The second batch (1 span, its delay passed) waits for the first export's answer.
    expect(sent.map((request) => request.spans)).toEqual([3]);
    sent[0]!.done(OK);
    expect(sent.map((request) => request.spans)).toEqual([3, 1]);
    sent[1]!.done(OK);
    // The second batch reuses the first's writer, emptied: its spans only.
    expect(sent[1]!.body.includes('span 3')).toBe(true);
    expect(sent[1]!.body.includes('span 0')).toBe(false);
  });

  test('spans waiting beyond the queue are dropped; spans not sampled are not written; forceFlush sends what is open and waits for it', async () => {
    const { exporter, sent } = heldExporter();
    const encoding = new EncodingSpanProcessor(exporter, { maxQueueSize: 2, maxExportBatchSize: 10, scheduledDelayMillis: 60_000, exportTimeoutMillis: 10_000 });
    const tracer = providerWith(encoding).getTracer('academy');
    for (let i = 0; i < 5; i++) tracer.startSpan(`span ${i}`).end();
    const unsampled = trace.setSpanContext(ROOT_CONTEXT, { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.NONE });
    encoding.onEnd({ ...({} as ReadableSpan), spanContext: () => trace.getSpanContext(unsampled)! });
    let flushed = false;
    const flushing = encoding.forceFlush().then(() => (flushed = true));
    expect(sent.map((request) => request.spans)).toEqual([2]);
    await tick();
    expect(flushed).toBe(false);
    sent[0]!.done(OK);
    await flushing;
    // The queue has room again once its spans left.
    tracer.startSpan('after').end();
    void encoding.forceFlush();
    expect(sent.map((request) => request.spans)).toEqual([2, 1]);
  });

  test('an export that never answers frees its place after the export timeout', async () => {
    const { exporter, sent } = heldExporter();
    const encoding = new EncodingSpanProcessor(exporter, { maxQueueSize: 10, maxExportBatchSize: 1, scheduledDelayMillis: 10, exportTimeoutMillis: 30 });
    const tracer = providerWith(encoding).getTracer('academy');
    tracer.startSpan('first').end();
    tracer.startSpan('second').end();
    expect(sent).toHaveLength(1);
    await tick(60);
    expect(sent).toHaveLength(2);
  });

  test("the SDK's OTLP protobuf exporter sends the encoded body as it is (its serializer passed through)", () => {
    const exporter = sendingEncoded(new OTLPTraceExporter({ url: 'http://127.0.0.1:9/v1/traces' }));
    const serializer = (exporter as unknown as { _delegate: { _serializer: { serializeRequest(items: unknown): Uint8Array } } })._delegate._serializer;
    const body = new Uint8Array([10, 2, 8, 1]);
    expect(serializer.serializeRequest({ length: 1, body })).toBe(body);
  });
});
