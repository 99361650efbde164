// A request the sampler leaves out pays (next to) nothing for tracing: the http instrumentation's work
// runs only for a request that will be recorded, the edge decides before it, and a service behind the
// edge follows the traceparent's flag without a span of its own; express's layers likewise.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, propagation, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { AlwaysOffSampler, AlwaysOnSampler, TraceIdRatioBasedSampler, TracerProvider, type Sampler } from '@opentelemetry/sdk-trace';
import { EdgeIdGenerator, expressOnlyInRecordedTraces, httpOnlyWhenRecorded, parseTraceparent, type HttpSampling } from '../src/sampled-out.ts';

type Handler = (this: unknown, ...args: unknown[]) => unknown;
const CLIENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_PARENT = '00f067aa0ba902b7';

/** A stand-in for the http instrumentation: its patched handlers say they ran (and start the server span, as it does). */
function fakeHttp(provider?: TracerProvider) {
  const calls: string[] = [];
  const spans: { traceId: string; recording: boolean }[] = [];
  const instrumentation = {
    _incomingRequestFunction: (_component: string, original: Handler): Handler =>
      function (this: unknown, ...args: unknown[]) {
        calls.push('instrumented');
        if (provider) {
          const request = args[1] as IncomingMessage;
          const span = provider.getTracer('test').startSpan('GET', {}, propagation.extract(ROOT_CONTEXT, request.headers));
          spans.push({ traceId: span.spanContext().traceId, recording: span.isRecording() });
        }
        return original.apply(this, args);
      },
    _outgoingRequestFunction: (_component: string, original: Handler): Handler =>
      function (this: unknown, ...args: unknown[]) {
        calls.push('instrumented');
        return original.apply(this, args);
      },
  };
  return { instrumentation, calls, spans };
}

const request = (url: string, headers: Record<string, string> = {}) => ({ url, headers: { ...headers } }) as unknown as IncomingMessage;
const probe = (req: IncomingMessage) => req.url === '/healthz';

/** The wrapped server `emit`: what reached the app (and in which context), what ran the instrumentation. */
function serve(sampling: HttpSampling, provider?: TracerProvider) {
  const fake = fakeHttp(provider);
  const seen: { traceparent?: string; active?: { traceId: string; spanId: string; traceFlags: number } }[] = [];
  const emit = httpOnlyWhenRecorded(fake.instrumentation, sampling, probe)._incomingRequestFunction('http', function (this: unknown, ...args: unknown[]) {
    const spanContext = trace.getSpanContext(context.active());
    seen.push({ traceparent: (args[1] as IncomingMessage).headers.traceparent as string | undefined, active: spanContext && { traceId: spanContext.traceId, spanId: spanContext.spanId, traceFlags: spanContext.traceFlags } });
    return true;
  });
  return { emit: (req: IncomingMessage) => emit.call({}, 'request', req, { on: () => undefined }), ...fake, seen };
}

const edge = (sampler: Sampler, ids = new EdgeIdGenerator()): HttpSampling => ({ edge: true, sampler, ids });

describe('httpOnlyWhenRecorded', () => {
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  });
  afterAll(() => {
    context.disable();
    propagation.disable();
  });

  test("at the edge a request sampled out skips the instrumentation and carries its own 'not sampled' traceparent on (the client's trace id kept, a client's sampled flag not obeyed)", () => {
    const server = serve(edge(new AlwaysOffSampler()));
    server.emit(request('/api/v2/auth/me', { traceparent: `00-${CLIENT_TRACE}-${CLIENT_PARENT}-01` }));
    server.emit(request('/api/v2/auth/me'));
    server.emit(request('/api/v2/auth/me', { traceparent: 'not-a-traceparent' }));
    expect(server.calls).toEqual([]);
    const [client, none, malformed] = server.seen.map((seen) => parseTraceparent(seen.traceparent));
    expect(client).toMatchObject({ traceId: CLIENT_TRACE, sampled: false });
    expect(client!.parentId).not.toBe(CLIENT_PARENT);
    expect(none).toMatchObject({ sampled: false });
    expect(malformed).toMatchObject({ sampled: false });
    expect(malformed!.traceId).not.toBe(none!.traceId);
    expect(server.seen.map((seen) => seen.active)).toEqual([undefined, undefined, undefined]);
  });

  test('at the edge a recorded request runs the instrumentation, and its root span takes the trace id the edge decided on (the SDK agrees: every such span records)', () => {
    const sampler = new TraceIdRatioBasedSampler(0.5);
    const ids = new EdgeIdGenerator();
    const provider = new TracerProvider({ sampler, idGenerator: ids });
    const server = serve(edge(sampler, ids), provider);
    for (let i = 0; i < 200; i++) server.emit(request('/api/v2/auth/me', i % 2 ? {} : { traceparent: 'malformed' }));
    expect(server.spans.length).toBeGreaterThan(50);
    expect(server.spans.length).toBeLessThan(150);
    expect(server.spans.every((span) => span.recording)).toBe(true);
    expect(server.seen.filter((seen) => seen.traceparent === undefined)).toHaveLength(server.spans.length);
    expect(new Set(server.spans.map((span) => span.traceId)).size).toBe(server.spans.length);
    // The pin is used once: a root started after the request takes a fresh id.
    expect(ids.generateTraceId()).not.toBe(server.spans.at(-1)!.traceId);
  });

  test('at the edge with a sampled-in client traceparent the instrumentation runs with the header as the client sent it', () => {
    const server = serve(edge(new AlwaysOnSampler()));
    const traceparent = `00-${CLIENT_TRACE}-${CLIENT_PARENT}-00`;
    server.emit(request('/api/v2/auth/me', { traceparent }));
    expect(server.calls).toEqual(['instrumented']);
    expect(server.seen[0]!.traceparent).toBe(traceparent);
  });

  test("behind the edge a traceparent that says 'not sampled' is followed without the instrumentation: the parent's context is current for the app", () => {
    const server = serve({ edge: false, followsParent: true });
    server.emit(request('/api/v2/x', { traceparent: `00-${CLIENT_TRACE}-${CLIENT_PARENT}-00` }));
    expect(server.calls).toEqual([]);
    expect(server.seen[0]!.active).toEqual({ traceId: CLIENT_TRACE, spanId: CLIENT_PARENT, traceFlags: TraceFlags.NONE });

    server.emit(request('/api/v2/x', { traceparent: `00-${CLIENT_TRACE}-${CLIENT_PARENT}-01` }));
    server.emit(request('/api/v2/x'));
    server.emit(request('/api/v2/x', { traceparent: '00-00000000000000000000000000000000-00f067aa0ba902b7-00' }));
    expect(server.calls).toEqual(['instrumented', 'instrumented', 'instrumented']);
  });

  test('a service whose sampler does not follow its parent runs the instrumentation for every request; a probe never does', () => {
    const server = serve({ edge: false, followsParent: false });
    server.emit(request('/api/v2/x', { traceparent: `00-${CLIENT_TRACE}-${CLIENT_PARENT}-00` }));
    expect(server.calls).toEqual(['instrumented']);
    server.emit(request('/healthz', { traceparent: `00-${CLIENT_TRACE}-${CLIENT_PARENT}-01` }));
    expect(server.calls).toEqual(['instrumented']);
    expect(serve(edge(new AlwaysOnSampler())).emit(request('/healthz'))).toBe(true);
  });

  test('an outgoing request outside any trace goes straight to Node; inside one (recorded or not) the instrumentation carries the context', () => {
    const fake = fakeHttp();
    const send = httpOnlyWhenRecorded(fake.instrumentation, { edge: false, followsParent: true }, probe)._outgoingRequestFunction('http', () => 'request');
    expect(send()).toBe('request');
    expect(fake.calls).toEqual([]);
    for (const traceFlags of [TraceFlags.NONE, TraceFlags.SAMPLED]) {
      context.with(trace.setSpanContext(ROOT_CONTEXT, { traceId: CLIENT_TRACE, spanId: CLIENT_PARENT, traceFlags }), () => send());
    }
    expect(fake.calls).toEqual(['instrumented', 'instrumented']);
  });

  test("at the edge an outgoing request inside a trace gets no client span: Node's request carries the current context as traceparent (a client's copied header replaced) and its listeners run in that context", async () => {
    const received: (string | undefined)[] = [];
    const server = http.createServer((req, res) => {
      received.push(req.headers.traceparent as string | undefined);
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const fake = fakeHttp();
      const send = httpOnlyWhenRecorded(fake.instrumentation, edge(new AlwaysOnSampler()), probe)._outgoingRequestFunction('http', http.request as unknown as Handler);
      const get = (headers: Record<string, string>) =>
        new Promise<string | undefined>((resolve, reject) => {
          const request = send({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/', headers }) as http.ClientRequest;
          request.on('response', (response) => {
            response.resume();
            resolve(trace.getSpanContext(context.active())?.spanId);
          });
          request.on('error', reject);
          request.end();
        });
      const ours = { traceId: CLIENT_TRACE, spanId: 'a1b2c3d4e5f60718', traceFlags: TraceFlags.SAMPLED };
      const client = `00-${CLIENT_TRACE}-${CLIENT_PARENT}-01`;
      const inTrace = await context.with(trace.setSpanContext(ROOT_CONTEXT, ours), () => get({ traceparent: client }));
      const outside = await get({ traceparent: client });
      expect(fake.calls).toEqual([]);
      expect(received).toEqual([`00-${CLIENT_TRACE}-a1b2c3d4e5f60718-01`, client]);
      expect(inTrace).toBe('a1b2c3d4e5f60718');
      expect(outside).toBeUndefined();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('expressOnlyInRecordedTraces', () => {
  test("a layer runs the instrumentation's handler only inside a recorded trace, else its own; arity and properties kept", () => {
    const calls: string[] = [];
    let recording = false;
    const instrumentation = {
      _applyPatch(layer: { handle: Handler }) {
        const own = layer.handle;
        layer.handle = function (this: unknown, req: unknown, res: unknown) {
          calls.push('instrumented');
          return own.call(this, req, res);
        };
      },
    };
    const own = Object.assign(
      function (_req: unknown, _res: unknown, _next: unknown) {
        calls.push('own');
      },
      { stack: ['route'] },
    );
    const layer = { handle: own as Handler };
    expressOnlyInRecordedTraces(instrumentation, () => recording)._applyPatch(layer);
    layer.handle({}, {}, () => undefined);
    recording = true;
    layer.handle({}, {}, () => undefined);
    expect(calls).toEqual(['own', 'instrumented', 'own']);
    expect(layer.handle.length).toBe(2);
    expect((layer.handle as unknown as { stack: string[] }).stack).toEqual(['route']);
  });

  test('the http and express instrumentations of this version have the methods wrapped (a rename fails here, not silently)', async () => {
    const { HttpInstrumentation } = await import('@opentelemetry/instrumentation-http');
    const { ExpressInstrumentation } = await import('@opentelemetry/instrumentation-express');
    expect(() => httpOnlyWhenRecorded(new HttpInstrumentation({ enabled: false }), { edge: false, followsParent: true }, probe)).not.toThrow();
    expect(() => expressOnlyInRecordedTraces(new ExpressInstrumentation({ enabled: false }))).not.toThrow();
    expect(() => expressOnlyInRecordedTraces({})).toThrow(/no _applyPatch/);
  });
});
