// The span helpers under a parent the sampler left out: no span is started (nothing would be
// recorded), and the parent's context stays current so that what the work writes or sends carries
// the "not sampled" decision on.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { context, propagation, ROOT_CONTEXT, trace, TraceFlags, type Context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, ParentBasedSampler, AlwaysOnSampler, SimpleSpanProcessor, TracerProvider, type Sampler } from '@opentelemetry/sdk-trace';
import { contextFromCarrier, currentTraceCarrier, inSpan, linkFromCarrier, startSpan } from '../src/telemetry.ts';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const parent = (traceFlags: TraceFlags): Context => trace.setSpanContext(ROOT_CONTEXT, { traceId: TRACE_ID, spanId: PARENT_ID, traceFlags, isRemote: true });

describe('inSpan and startSpan under a sampled-out parent', () => {
  const exporter = new InMemorySpanExporter();
  const inner = new ParentBasedSampler({ root: new AlwaysOnSampler() });
  let samplerCalls = 0;
  const sampler: Sampler = { shouldSample: (...args) => (samplerCalls++, inner.shouldSample(...args)), toString: () => 'counting' };
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(new TracerProvider({ sampler, spanProcessors: [new SimpleSpanProcessor({ exporter })] }));
  });
  afterAll(() => {
    trace.disable();
    context.disable();
    propagation.disable();
  });

  test('a sampled-out parent: no span, no sampler; the work runs in the parent’s context, which it passes on as not sampled', async () => {
    samplerCalls = 0;
    exporter.reset();
    const seen = await inSpan('process employee.deleted', { parent: parent(TraceFlags.NONE), attributes: { 'messaging.system': 'rabbitmq' } }, async (span) => {
      await Promise.resolve();
      return { spanId: span.spanContext().spanId, recording: span.isRecording(), active: trace.getActiveSpan()?.spanContext().spanId, carrier: currentTraceCarrier() };
    });
    expect(seen).toEqual({ spanId: PARENT_ID, recording: false, active: PARENT_ID, carrier: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-00` } });
    const started = startSpan('publish employee.deleted', { parent: parent(TraceFlags.NONE) });
    started.end();
    expect(started.spanContext().spanId).toBe(PARENT_ID);
    expect(samplerCalls).toBe(0);
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });

  test("a delivery's headers without a traceparent are not handed to the propagator (no extract per message); with one, they are", () => {
    let extracts = 0;
    const w3c = new W3CTraceContextPropagator();
    propagation.disable();
    propagation.setGlobalPropagator({ inject: (...args) => w3c.inject(...args), extract: (...args) => (extracts++, w3c.extract(...args)), fields: () => w3c.fields() });
    try {
      expect(contextFromCarrier({ 'x-published-at': 1 })).toBe(ROOT_CONTEXT);
      expect(linkFromCarrier({ traceparent: undefined })).toBeNull();
      expect(extracts).toBe(0);
      const traceparent = `00-${TRACE_ID}-${PARENT_ID}-00`;
      expect(trace.getSpanContext(contextFromCarrier({ traceparent }))?.spanId).toBe(PARENT_ID);
      expect(linkFromCarrier({ traceparent })?.context.spanId).toBe(PARENT_ID);
      expect(extracts).toBe(2);
    } finally {
      propagation.disable();
      propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    }
  });

  test('a sampled parent: a child span is started and recorded, as before', async () => {
    samplerCalls = 0;
    exporter.reset();
    const spanId = await inSpan('process employee.deleted', { parent: parent(TraceFlags.SAMPLED) }, async (span) => span.spanContext().spanId);
    expect(spanId).not.toBe(PARENT_ID);
    expect(samplerCalls).toBe(1);
    expect(exporter.getFinishedSpans().map((span) => [span.name, span.parentSpanContext?.spanId])).toEqual([['process employee.deleted', PARENT_ID]]);
  });
});
