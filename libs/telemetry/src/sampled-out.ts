import type { ClientRequest, IncomingMessage } from 'node:http';
import { context, isSpanContextValid, propagation, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { RandomIdGenerator, SamplingDecision, type IdGenerator, type Sampler } from '@opentelemetry/sdk-trace';
import { recordingNow } from './recorded-only.ts';

type Handler = (this: unknown, ...args: unknown[]) => unknown;

/** Sets a propagated header on a request not yet sent (it replaces a client's `traceparent` the proxy copied). */
const HEADER_SETTER = { set: (request: ClientRequest, key: string, value: string) => void request.setHeader(key, value) };

/** A version-00 `traceparent`: trace id, parent id, flags. Anything else is not read here (the SDK's path reads it). */
const TRACEPARENT = /^00-([\da-f]{32})-([\da-f]{16})-([\da-f]{2})$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/** The trace and parent ids and sampled flag of a client's `traceparent`, or null when it is absent, malformed or all zeros. */
export function parseTraceparent(header: unknown): { traceId: string; parentId: string; sampled: boolean } | null {
  const found = typeof header === 'string' ? TRACEPARENT.exec(header) : null;
  if (!found || found[1] === ZERO_TRACE || found[2] === ZERO_SPAN) return null;
  return { traceId: found[1]!, parentId: found[2]!, sampled: (parseInt(found[3]!, 16) & 1) === 1 };
}

/**
 * The SDK's ids, except that the edge can name the trace id of the next root span: the one it has
 * just decided to record (`pin`), so that the SDK's sampler, deciding again on that id, agrees.
 */
export class EdgeIdGenerator implements IdGenerator {
  private readonly random = new RandomIdGenerator();
  private pinned: string | undefined;

  pin(traceId: string | undefined): void {
    this.pinned = traceId;
  }

  generateTraceId(): string {
    const id = this.pinned ?? this.random.generateTraceId();
    this.pinned = undefined;
    return id;
  }

  generateSpanId(): string {
    return this.random.generateSpanId();
  }
}

/** Where the http instrumentation runs: the edge decides each request's sampling itself; behind it a service follows the parent's flag. */
export type HttpSampling = { edge: true; sampler: Sampler; ids: EdgeIdGenerator } | { edge: false; followsParent: boolean };

/**
 * Makes the http instrumentation's work (a span, its attributes, the request's and response's event
 * emitters bound to its context, its timers) run only for a request that will be recorded:
 *
 * - at the **edge** (the gateway), whose sampler decides alone: the decision is taken first, on the
 *   client's trace id (a valid `traceparent`'s) or a new one. Recorded: the instrumentation runs (its
 *   root span takes that trace id, `ids.pin`). Sampled out: nothing runs but the app; the request's
 *   `traceparent` header is replaced by `00-<trace id>-<new span id>-00`, which the proxy forwards, so
 *   the service behind follows the decision (and a client's trace id goes on). A malformed
 *   `traceparent` gives a new trace id (a new root), as the W3C propagator would.
 * - **behind** it (`followsParent`: a parent-based sampler), a request whose `traceparent` says
 *   "not sampled" is not recorded whatever happens: its context is made current (the outbox and any
 *   outgoing call carry the decision on; log lines name the trace), with no span of its own.
 * - `ignore` (the probes): the app alone.
 *
 * An outgoing request outside any trace (the gateway's proxying of a sampled-out request, which
 * already carries its header; a readiness check) goes straight to Node's; inside one, behind the
 * edge, the instrumentation runs (a client span; it injects the context, recorded or not). At the
 * **edge** an outgoing request (the proxied hop) gets no client span of its own: Node's request is
 * made, the current context injected into its headers (`traceparent`: the gateway's server span is
 * the service's parent) and bound to it (its listeners, the proxy's error log, run in the request's
 * trace). The service's server span, the client span's only child, times the hop; the gateway's
 * server span has the status. Returns the instrumentation.
 */
export function httpOnlyWhenRecorded<T extends object>(instrumentation: T, sampling: HttpSampling, ignore: (request: IncomingMessage) => boolean): T {
  const methods = instrumentation as unknown as Record<string, (component: string, original: Handler) => Handler>;
  const incoming = methods._incomingRequestFunction;
  const outgoing = methods._outgoingRequestFunction;
  if (typeof incoming !== 'function' || typeof outgoing !== 'function') throw new Error('telemetry: the http instrumentation has no _incomingRequestFunction/_outgoingRequestFunction to wrap (its version changed?)');
  const random = new RandomIdGenerator();

  methods._incomingRequestFunction = (component, original) => {
    const patched = incoming.call(instrumentation, component, original);
    return function (this: unknown, ...args: unknown[]) {
      const request = args[1] as IncomingMessage;
      if (args[0] !== 'request' || ignore(request)) return original.apply(this, args);
      const parent = parseTraceparent(request.headers.traceparent);
      if (sampling.edge) {
        const traceId = parent?.traceId ?? random.generateTraceId();
        const { decision } = sampling.sampler.shouldSample(ROOT_CONTEXT, traceId, 'HTTP', SpanKind.SERVER, {}, []);
        if (decision === SamplingDecision.NOT_RECORD) {
          request.headers.traceparent = `00-${traceId}-${random.generateSpanId()}-00`;
          return original.apply(this, args);
        }
        if (!parent) {
          // Absent or malformed: the root span the instrumentation starts takes the trace id decided on.
          delete request.headers.traceparent;
          delete request.headers.tracestate;
          sampling.ids.pin(traceId);
        }
        try {
          return patched.apply(this, args);
        } finally {
          sampling.ids.pin(undefined);
        }
      }
      if (!sampling.followsParent || !parent || parent.sampled) return patched.apply(this, args);
      const parentContext = propagation.extract(ROOT_CONTEXT, request.headers);
      return context.with(parentContext, () => {
        // As the instrumentation does: listeners (a body's `end`, a response's `finish`) run in the request's context.
        context.bind(parentContext, request);
        context.bind(parentContext, args[2]);
        return original.apply(this, args);
      });
    };
  };

  methods._outgoingRequestFunction = (component, original) => {
    const patched = outgoing.call(instrumentation, component, original);
    return function (this: unknown, ...args: unknown[]) {
      const active = context.active();
      const spanContext = trace.getSpanContext(active);
      if (!spanContext || !isSpanContextValid(spanContext)) return original.apply(this, args);
      if (!sampling.edge) return patched.apply(this, args);
      const request = original.apply(this, args) as ClientRequest;
      if (!request.headersSent) propagation.inject(active, request, HEADER_SETTER);
      return context.bind(active, request);
    };
  };
  return instrumentation;
}

/**
 * Makes the express instrumentation's patched layers run only inside a recorded trace: in any other
 * request a layer's own handler runs, without the instrumentation's per-layer work (its layer path
 * and route bookkeeping, the metadata it builds for every layer, middleware included, before it
 * knows whether it makes a span). Returns the instrumentation.
 */
export function expressOnlyInRecordedTraces<T extends object>(instrumentation: T, recording: () => boolean = recordingNow): T {
  const methods = instrumentation as unknown as Record<string, (layer: { handle: Handler }, path: unknown) => void>;
  const applyPatch = methods._applyPatch;
  if (typeof applyPatch !== 'function') throw new Error('telemetry: the express instrumentation has no _applyPatch to wrap (its version changed?)');
  methods._applyPatch = function (this: unknown, layer, layerPath) {
    const own = layer.handle;
    applyPatch.call(instrumentation, layer, layerPath);
    const patched = layer.handle;
    if (patched === own || typeof own !== 'function') return;
    const handle = function (this: unknown, ...args: unknown[]) {
      return (recording() ? patched : own).apply(this, args);
    };
    // The layer's handler keeps its arity (Express tells error handlers by it) and its own properties.
    Object.defineProperty(handle, 'length', { value: patched.length });
    for (const key in own) Object.defineProperty(handle, key, { get: () => (own as unknown as Record<string, unknown>)[key], set: (value) => ((own as unknown as Record<string, unknown>)[key] = value) });
    layer.handle = handle;
  };
  return instrumentation;
}
