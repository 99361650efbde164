// The OpenTelemetry SDK of one process, configured by the standard OTEL_* variables. Loaded by the
// preload (register.ts) before the app's first import; nothing else imports the SDK.
import type { IncomingMessage } from 'node:http';
import { context, diag, DiagLogLevel, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { EmitBindingContextManager } from './context.ts';
import { onlyInRecordedTraces } from './recorded-only.ts';
import { EdgeIdGenerator, expressOnlyInRecordedTraces, httpOnlyWhenRecorded } from './sampled-out.ts';
import { samplerFromEnv } from './sampler.ts';
import { DroppingExporter } from './exporter.ts';
import { settingsFromEnv, type TelemetrySettings } from './settings.ts';

export type { TelemetrySettings };

/** Paths that are probes, not requests: no span (they would be most of the spans of an idle system). */
const PROBES = new Set(['/healthz', '/readyz', '/metrics', '/livez']);
const isProbe = (request: IncomingMessage) => PROBES.has((request.url ?? '').split('?')[0]!);

/**
 * Starts tracing when an endpoint is set: W3C trace context, the http/express, pg and ioredis
 * instrumentations, spans batched (bounded queue) to OTLP/HTTP. Returns the shutdown (flushes what
 * is queued), or null when tracing is off: then nothing is patched and the API stays a no-op.
 */
export function startTelemetry(settings: TelemetrySettings = settingsFromEnv()): (() => Promise<void>) | null {
  if (!settings.endpoint) return null;
  // The trace SDK and what it needs, not @opentelemetry/sdk-node: that one also loads the metrics and
  // logs SDKs and every exporter (gRPC included), seconds of start-up on a busy machine for nothing
  // used here (metrics stay Prometheus', logs pino's).
  // OTLP/HTTP in protobuf (the specification's default) or JSON: `OTEL_EXPORTER_OTLP_PROTOCOL`. Protobuf
  // costs the process about half the serializing of JSON and sends half the bytes (libs/telemetry README).
  const exporter = new DroppingExporter(settings.protocol === 'http/json' ? new OtlpJsonExporter() : new OtlpProtobufExporter(), settings.serviceName);
  if (settings.protocolWarning) warn(settings.protocolWarning);
  const resource = defaultResource()
    .merge(detectResources({ detectors: [envDetector] }))
    .merge(
      resourceFromAttributes({
        'service.name': settings.serviceName,
        ...(settings.version ? { 'service.version': settings.version } : {}),
        ...(settings.commit ? { 'vcs.ref.head.revision': settings.commit } : {}),
      }),
    );
  const sampler = samplerFromEnv(settings.edge);
  // At the edge the http instrumentation's wrapper decides first and names the recorded root's trace id.
  const ids = new EdgeIdGenerator();
  const provider = new TracerProvider({
    resource,
    sampler,
    idGenerator: ids,
    // The OTEL_BSP_* variables tune it; the queue's bound (8192 spans by default) is what keeps a
    // process whose collector is away from growing: spans beyond it are dropped, not queued.
    // OTEL_TRACES_EXPORTER=none: recorded spans end there (no batch, no export).
    spanProcessors: settings.exporter === 'none' ? [] : [new BatchSpanProcessor({ exporter, ...batchOptionsFromEnv() })],
  });
  context.setGlobalContextManager((settings.bindEmit ? new EmitBindingContextManager() : new AsyncLocalStorageContextManager()).enable());
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
  trace.setGlobalTracerProvider(provider);
  const enabled = (name: string) => !settings.disabledInstrumentations.includes(name);
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      // A request sampled out costs (next to) nothing: sampled-out.ts.
      ...(!enabled('http') ? [] : [httpOnlyWhenRecorded(
        new HttpInstrumentation({
          ignoreIncomingRequestHook: isProbe,
          ignoreOutgoingRequestHook: (options) => PROBES.has(String(options.path ?? '').split('?')[0]),
          requireParentforOutgoingSpans: true,
        }),
        settings.edge ? { edge: true, sampler, ids } : { edge: false, followsParent: (process.env.OTEL_TRACES_SAMPLER || 'parentbased_traceidratio').trim().toLowerCase().startsWith('parentbased_') },
        isProbe,
      )]),
      // Only with TRACE_EXPRESS=true: its "request handler" span repeats the server span (named with the
      // route by kit's request front) and its patched layers cost every request (README). Then routers and
      // route handlers only, in a recorded trace only.
      ...(settings.express && enabled('express') ? [expressOnlyInRecordedTraces(new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }))] : []),
      // No recorded parent, no span: the relay's and the checks' polls are not traces of their own, and
      // a trace the sampler left out pays nothing per query (not even a span that records nothing).
      ...(!enabled('pg') ? [] : [withoutPoolPatches(onlyInRecordedTraces(new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }), ['_getClientQueryPatch']))]),
      ...(!enabled('ioredis') ? [] : [onlyInRecordedTraces(new IORedisInstrumentation({ requireParentSpan: true }), ['_patchSendCommand'])]),
    ],
  });
  // The SDK's own complaints (an export that failed…), throttled; OTEL_LOG_LEVEL=debug shows everything instead.
  if (process.env.OTEL_LOG_LEVEL?.toLowerCase() === 'debug') diag.setLogger({ error: console.error, warn: console.error, info: console.error, debug: console.error, verbose: console.error }, DiagLogLevel.DEBUG);
  else diag.setLogger({ error: warn, warn, info: () => {}, debug: () => {}, verbose: () => {} }, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
  return () => provider.shutdown();
}

/**
 * The pg instrumentation also counts each pool's connections for OpenTelemetry metrics (four pool
 * listeners, a count of the pool's clients on each checkout and release), which no one reads here:
 * metrics are Prometheus' and no meter provider is set. Its listeners are not added. And with no
 * connect spans (`ignoreConnectSpans`) its wrapper of `pool.connect` has nothing left to do but look
 * for a span on every checkout: the pool's own `connect` is kept.
 */
export function withoutPoolPatches(instrumentation: PgInstrumentation): PgInstrumentation {
  const methods = instrumentation as unknown as Record<string, unknown>;
  for (const name of ['_setPoolConnectEventListeners', '_getPoolConnectPatch']) {
    if (typeof methods[name] !== 'function') throw new Error(`telemetry: PgInstrumentation has no ${name}() (its version changed?)`);
  }
  methods._setPoolConnectEventListeners = () => {};
  methods._getPoolConnectPatch = () => (original: unknown) => original;
  return instrumentation;
}

/**
 * The batch processor's limits: the OTEL_BSP_* variables (the SDK's processor no longer reads them
 * itself), else ours. Small batches sent soon (256 spans, or what 250 ms gathered): a span held for
 * its batch for seconds outlives the young generation's collections and is copied and promoted, which
 * cost the events pipeline more than the exports' HTTP requests save (bench:tracing, seventh pass: CPU
 * an event at 100 % 185 % of off with 2048 spans / 5 s, 155 % with 256 / 250 ms, same run). The queue
 * (8192 spans, the memory bound while a collector is away: about 10 MB of spans) is unchanged.
 */
export const BATCH_DEFAULTS = { maxQueueSize: 8192, maxExportBatchSize: 256, scheduledDelayMillis: 250, exportTimeoutMillis: 30_000 };

export function batchOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): typeof BATCH_DEFAULTS {
  const number = (name: string) => {
    const value = Number(env[name]);
    return env[name] && Number.isFinite(value) && value >= 0 ? value : undefined;
  };
  const maxQueueSize = number('OTEL_BSP_MAX_QUEUE_SIZE') ?? BATCH_DEFAULTS.maxQueueSize;
  return {
    maxQueueSize,
    scheduledDelayMillis: number('OTEL_BSP_SCHEDULE_DELAY') ?? BATCH_DEFAULTS.scheduledDelayMillis,
    exportTimeoutMillis: number('OTEL_BSP_EXPORT_TIMEOUT') ?? BATCH_DEFAULTS.exportTimeoutMillis,
    // Never more than the queue holds (the processor would cut it to that, with a warning).
    maxExportBatchSize: Math.min(number('OTEL_BSP_MAX_EXPORT_BATCH_SIZE') ?? BATCH_DEFAULTS.maxExportBatchSize, maxQueueSize),
  };
}

let lastWarning = 0;
/** The SDK's own complaints (an export that failed, a full queue), at most one line a minute. */
function warn(message: string, ...args: unknown[]): void {
  const now = Date.now();
  if (now - lastWarning < 60_000) return;
  lastWarning = now;
  process.stderr.write(`${JSON.stringify({ level: 40, time: new Date(now).toISOString(), msg: `telemetry: ${message}`, detail: args.map(String).join(' ').slice(0, 500) })}\n`);
}
