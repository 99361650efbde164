// Tracing as the code sees it: the OpenTelemetry API only. The SDK is started, or not, by the
// preload (libs/telemetry); without it every call here is a no-op costing next to nothing.
import { context, isSpanContextValid, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Attributes, type Context, type Link, type Span } from '@opentelemetry/api';

export { SpanKind, type Span };

/** A trace context as W3C headers (`traceparent`, and `tracestate` when there is one). */
export type TraceCarrier = Record<string, string>;

const tracer = () => trace.getTracer('academy');

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The parent (an extracted remote context); default the active one. */
  parent?: Context;
  /** A new trace, whatever is active (a scheduled job, a replay). */
  root?: boolean;
  links?: Link[];
}

/**
 * Runs `work` in a span named `name`, active while it runs (the instrumented calls it makes become
 * its children, its log lines carry its ids). A throw marks the span as an error and is rethrown.
 */
export function inSpan<T>(name: string, options: SpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  const parent = options.root ? ROOT_CONTEXT : (options.parent ?? context.active());
  const sampledOut = sampledOutParent(parent);
  // The parent's trace is not recorded, so neither would this span be (services follow their parent's
  // decision): no span, no sampler, no attributes; the parent's context is made current, so that what
  // the work writes or sends still says "not sampled" (and its log lines name the trace).
  if (sampledOut) return context.with(parent, () => work(sampledOut));
  return tracer().startActiveSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes, links: options.links, root: options.root }, parent, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The parent's span when it is valid, sampled out and not recording (then a child would record nothing either), else null. */
function sampledOutParent(parent: Context): Span | null {
  const span = parent === ROOT_CONTEXT ? undefined : trace.getSpan(parent);
  if (!span || span.isRecording()) return null;
  const spanContext = span.spanContext();
  return (spanContext.traceFlags & TraceFlags.SAMPLED) === 0 && isSpanContextValid(spanContext) ? span : null;
}

/** Starts a span that is not made active (ended by the caller): one of several in flight at once. */
export function startSpan(name: string, options: SpanOptions & { startTime?: Date }): Span {
  const parent = options.root ? ROOT_CONTEXT : (options.parent ?? context.active());
  const sampledOut = sampledOutParent(parent);
  if (sampledOut) return sampledOut;
  return tracer().startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes, links: options.links, root: options.root, startTime: options.startTime }, parent);
}

/** Marks a span as failed with `error` (it still has to be ended). */
export function markSpanError(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/** Ends a span, as an error when `error` is given. */
export function endSpan(span: Span, error?: unknown): void {
  if (error) markSpanError(span, error);
  span.end();
}

/** A span's context as headers, or null when it is not recorded (tracing off, or sampled out with nothing to pass on). */
export function carrierOfSpan(span: Span): TraceCarrier | null {
  if (!isSpanContextValid(span.spanContext())) return null;
  const carrier: TraceCarrier = {};
  propagation.inject(trace.setSpan(ROOT_CONTEXT, span), carrier);
  return carrier.traceparent ? carrier : null;
}

/** The active trace context as headers, or null when there is none (tracing off, no span). */
export function currentTraceCarrier(): TraceCarrier | null {
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? carrier : null;
}

/** The context a carrier names (a malformed `traceparent` gives none: a new root). */
export function contextFromCarrier(carrier: Record<string, unknown> | null | undefined): Context {
  // No traceparent, nothing to extract (a message of an untraced writer; a delivery that was not replayed).
  if (typeof carrier?.traceparent !== 'string') return ROOT_CONTEXT;
  const headers: TraceCarrier = {};
  for (const key of ['traceparent', 'tracestate']) if (typeof carrier[key] === 'string') headers[key] = carrier[key] as string;
  return propagation.extract(ROOT_CONTEXT, headers);
}

/** A link to the trace a carrier names, or null when it names none. */
export function linkFromCarrier(carrier: Record<string, unknown> | null | undefined, attributes?: Attributes): Link | null {
  if (typeof carrier?.traceparent !== 'string') return null;
  const spanContext = trace.getSpanContext(contextFromCarrier(carrier));
  return spanContext && isSpanContextValid(spanContext) ? { context: spanContext, attributes } : null;
}

/** `trace_id` and `span_id` of the active span, for a log line; nothing outside a span. */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  const spanContext = trace.getActiveSpan()?.spanContext();
  return spanContext && isSpanContextValid(spanContext) ? { trace_id: spanContext.traceId, span_id: spanContext.spanId } : {};
}

/** The active span, if any (undefined when tracing is off or nothing is traced here). */
export function currentSpan(): Span | undefined {
  return trace.getActiveSpan();
}

/** Waits (2 s at most) for the spans still queued to be exported: the last step of a shutdown. */
export async function flushTraces(timeoutMs = 2000): Promise<void> {
  const provider = trace.getTracerProvider() as { getDelegate?: () => { forceFlush?: () => Promise<void> } };
  const flushing = provider.getDelegate?.().forceFlush?.();
  if (!flushing) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([flushing.catch(() => {}), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
}
