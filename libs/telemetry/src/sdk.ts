// The OpenTelemetry SDK of one process, configured by the standard OTEL_* variables. Loaded by the
// preload (register.ts) before the app's first import; nothing else imports the SDK.
import { diag, DiagLogLevel } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace';
import { samplerFromEnv } from './sampler.ts';
import { DroppingExporter } from './exporter.ts';

export interface TelemetrySettings {
  serviceName: string;
  /** The OTLP/HTTP base URL (`OTEL_EXPORTER_OTLP_ENDPOINT`, or the traces-only variable); null: tracing off. */
  endpoint: string | null;
  version?: string;
  commit?: string;
  /** The edge (the gateway): a client's `traceparent` is a parent, but its sampled flag is not obeyed. */
  edge: boolean;
}

/** Paths that are probes, not requests: no span (they would be most of the spans of an idle system). */
const PROBES = new Set(['/healthz', '/readyz', '/metrics', '/livez']);

/** What the environment asks for; `OTEL_SDK_DISABLED=true` or no endpoint turns tracing off. */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env, argv1 = process.argv[1] ?? ''): TelemetrySettings {
  const app = /apps\/([^/]+)\//.exec(argv1)?.[1] ?? /tools\/([\w-]+)\.ts$/.exec(argv1)?.[1];
  const serviceName = env.OTEL_SERVICE_NAME || env.SERVICE || app || 'academy';
  const endpoint = env.OTEL_SDK_DISABLED === 'true' ? null : env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT || null;
  return { serviceName, endpoint, version: env.SERVICE_VERSION || undefined, commit: env.GIT_COMMIT || undefined, edge: (env.TRACE_EDGE ?? (serviceName === 'gateway' ? 'true' : 'false')) === 'true' };
}

/**
 * Starts tracing when an endpoint is set: W3C trace context, the http/express, pg and ioredis
 * instrumentations, spans batched (bounded queue) to OTLP/HTTP. Returns the shutdown (flushes what
 * is queued), or null when tracing is off: then nothing is patched and the API stays a no-op.
 */
export function startTelemetry(settings: TelemetrySettings = settingsFromEnv()): (() => Promise<void>) | null {
  if (!settings.endpoint) return null;
  // Metrics stay Prometheus' (prom-client) and logs pino's: the SDK exports traces only.
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  const exporter = new DroppingExporter(new OTLPTraceExporter(), settings.serviceName);
  const sdk = new NodeSDK({
    serviceName: settings.serviceName,
    resource: resourceFromAttributes({
      'service.name': settings.serviceName,
      ...(settings.version ? { 'service.version': settings.version } : {}),
      ...(settings.commit ? { 'vcs.ref.head.revision': settings.commit } : {}),
    }),
    sampler: samplerFromEnv(settings.edge),
    // The OTEL_BSP_* variables tune it; the queue's bound (2048 spans by default) is what keeps a
    // process whose collector is away from growing: spans beyond it are dropped, not queued.
    spanProcessors: [new BatchSpanProcessor({ exporter, ...batchOptionsFromEnv() })],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => PROBES.has((request.url ?? '').split('?')[0]),
        ignoreOutgoingRequestHook: (options) => PROBES.has(String(options.path ?? '').split('?')[0]),
        requireParentforOutgoingSpans: true,
      }),
      // Routers and route handlers only: a span per middleware (helmet, cors, body parsers…) is noise and cost.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      // No parent, no span: the relay's and the checks' polls are not traces of their own.
      new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  // The SDK's own complaints (an export that failed…), throttled; OTEL_LOG_LEVEL keeps the SDK's logger instead.
  if (!process.env.OTEL_LOG_LEVEL) diag.setLogger({ error: warn, warn, info: () => {}, debug: () => {}, verbose: () => {} }, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
  sdk.start();
  return () => sdk.shutdown();
}

/** The batch processor's OTEL_BSP_* variables (the SDK's processor no longer reads them itself). */
function batchOptionsFromEnv(env: NodeJS.ProcessEnv = process.env) {
  const number = (name: string) => {
    const value = Number(env[name]);
    return env[name] && Number.isFinite(value) && value >= 0 ? value : undefined;
  };
  return {
    maxQueueSize: number('OTEL_BSP_MAX_QUEUE_SIZE'),
    scheduledDelayMillis: number('OTEL_BSP_SCHEDULE_DELAY'),
    exportTimeoutMillis: number('OTEL_BSP_EXPORT_TIMEOUT'),
    maxExportBatchSize: number('OTEL_BSP_MAX_EXPORT_BATCH_SIZE'),
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
