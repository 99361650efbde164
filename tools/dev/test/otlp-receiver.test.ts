// The dev OTLP receiver (`npm start`'s, the system tests'): the services export OTLP/HTTP protobuf by
// default (OTEL_EXPORTER_OTLP_PROTOCOL), JSON when asked; it stores the same spans from either, and
// refuses what is neither (nothing stored).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { readSpans, startOtlpReceiver, type OtlpReceiver } from '../otlp-receiver.ts';

/** Two finished spans of one trace (a child with a link, an event and an error; attributes of every scalar type). */
async function twoSpans(service: string): Promise<ReadableSpan[]> {
  const memory = new InMemorySpanExporter();
  const provider = new TracerProvider({ resource: resourceFromAttributes({ 'service.name': service }), spanProcessors: [new SimpleSpanProcessor({ exporter: memory })] });
  const tracer = provider.getTracer('test');
  const parent = tracer.startSpan('parent', { kind: SpanKind.SERVER, attributes: { text: 'x', count: 3, ratio: 1.5, off: false, on: true } });
  const child = tracer.startSpan('child', { kind: SpanKind.CONSUMER, links: [{ context: parent.spanContext() }] }, trace.setSpan(ROOT_CONTEXT, parent));
  child.addEvent('retried', { attempt: 2 });
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'boom' });
  child.end();
  parent.end();
  await provider.forceFlush();
  return memory.getFinishedSpans();
}

describe('the dev OTLP receiver', () => {
  let dir: string;
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'academy-otlp-receiver-'));
    receiver = await startOtlpReceiver({ file: path.join(dir, 'spans.jsonl'), port: 0 });
  });
  afterAll(async () => {
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (body: Uint8Array, headers: Record<string, string>) => fetch(`${receiver.url}/v1/traces`, { method: 'POST', headers, body });
  const stored = (service: string) => readSpans(receiver.file).filter((span) => span.service === service);

  test('stores the same spans from a protobuf export (the default encoding) as from a JSON one', async () => {
    const asProtobuf = await post(ProtobufTraceSerializer.serializeRequest(await twoSpans('by-protobuf'))!, { 'content-type': 'application/x-protobuf' });
    expect(asProtobuf.status).toBe(200);
    expect(asProtobuf.headers.get('content-type')).toBe('application/x-protobuf');
    const asJson = await post(JsonTraceSerializer.serializeRequest(await twoSpans('by-json'))!, { 'content-type': 'application/json' });
    expect(asJson.status).toBe(200);

    const shape = (service: string) => stored(service).map(({ traceId, spanId, parentSpanId, links, ...span }) => ({ ...span, service: '', startMs: 0, endMs: 0, ids: [traceId.length, spanId.length, parentSpanId?.length ?? 0, links.length] }));
    expect(shape('by-protobuf')).toEqual(shape('by-json'));
    const [child, parent] = stored('by-protobuf');
    expect(child).toMatchObject({ name: 'child', kind: 5, parentSpanId: parent!.spanId, traceId: parent!.traceId, status: { code: 2, message: 'boom' }, links: [{ traceId: parent!.traceId, spanId: parent!.spanId }], events: [{ name: 'retried', attributes: { attempt: 2 } }] });
    expect(parent).toMatchObject({ name: 'parent', kind: 2, parentSpanId: null, attributes: { text: 'x', count: 3, ratio: 1.5, off: false, on: true } });
    expect(parent!.endMs).toBeGreaterThanOrEqual(parent!.startMs);
  });

  test("takes what the services' protobuf exporter sends, gzipped or not", async () => {
    for (const compression of ['none', 'gzip'] as const) {
      const exporter = new OTLPTraceExporter({ url: `${receiver.url}/v1/traces`, compression: compression as never });
      const result = await new Promise<{ code: number }>(async (resolve) => exporter.export(await twoSpans(`exporter-${compression}`), resolve));
      await exporter.shutdown();
      expect({ compression, code: result.code, spans: stored(`exporter-${compression}`).map((span) => span.name) }).toEqual({ compression, code: 0, spans: ['child', 'parent'] });
    }
    const gzipped = await post(gzipSync(ProtobufTraceSerializer.serializeRequest(await twoSpans('gzipped-by-hand'))!), { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' });
    expect(gzipped.status).toBe(200);
    expect(stored('gzipped-by-hand')).toHaveLength(2);
  });

  test('a truncated protobuf body is a 400, another content type or encoding a 415, and nothing is stored', async () => {
    const body = ProtobufTraceSerializer.serializeRequest(await twoSpans('refused'))!;
    expect((await post(body.subarray(0, body.length - 7), { 'content-type': 'application/x-protobuf' })).status).toBe(400);
    expect((await post(Buffer.from('{"resourceSpans":'), { 'content-type': 'application/json' })).status).toBe(400);
    expect((await post(body, { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post(body, { 'content-type': 'application/x-protobuf', 'content-encoding': 'br' })).status).toBe(415);
    expect(stored('refused')).toEqual([]);
  });
});
