// What the environment asks of tracing. No imports: the preload reads it before deciding whether to load the SDK at all.

export interface TelemetrySettings {
  serviceName: string;
  /** The OTLP/HTTP base URL (`OTEL_EXPORTER_OTLP_ENDPOINT`, or the traces-only variable); null: tracing off. */
  endpoint: string | null;
  version?: string;
  commit?: string;
  /** The edge (the gateway): a client's `traceparent` is a parent, but its sampled flag is not obeyed. */
  edge: boolean;
  /** The synchronous ES-module hook for `esmInstrumented` (`TRACE_ESM_HOOK`, default true). */
  esmHook: boolean;
  /**
   * Express's spans (`TRACE_EXPRESS=true`; default off): a "request handler" span per request, under the
   * server span that already has the route in its name. Off, express is not patched at all.
   */
  express: boolean;
  /**
   * The OTLP encoding (`OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`, else `OTEL_EXPORTER_OTLP_PROTOCOL`):
   * `http/protobuf` by default, as the OpenTelemetry specification says, or `http/json`. gRPC is not
   * shipped: `grpc` (or anything else) is taken as `http/protobuf`, with `protocolWarning` saying so.
   */
  protocol: OtlpProtocol;
  protocolWarning?: string;
  /**
   * How an event emitter is bound to a context (`TRACE_BIND_EMIT`): its `emit` wrapped once (default,
   * context.ts), or with `false` each listener wrapped, as the SDK's context manager does.
   */
  bindEmit: boolean;
  /**
   * Where recorded spans go (`OTEL_TRACES_EXPORTER`, the specification's variable): `otlp` (default), or
   * `none`: spans are still made and recorded (the context, the log lines' ids, the decision passed on),
   * then dropped when they end, neither batched nor serialized nor sent. What a recorded span costs
   * without its export (bench:tracing, eighth pass). Any other value (`console`, `zipkin`) is `otlp`.
   */
  exporter: 'otlp' | 'none';
  /**
   * Instrumentations left off (`OTEL_NODE_DISABLED_INSTRUMENTATIONS`, as `@opentelemetry/auto-instrumentations-node`
   * reads it: a comma-separated list of `http`, `express`, `pg`, `ioredis`); none by default.
   */
  disabledInstrumentations: string[];
}

export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** The packages our ES modules import whose instrumentation is on: only these go through the ES-module hook. */
export const esmInstrumented = (settings: Pick<TelemetrySettings, 'express'>): string[] => (settings.express ? ['express', 'ioredis'] : ['ioredis']);

/**
 * What the environment asks for; `OTEL_SDK_DISABLED=true` or no endpoint turns tracing off. Version and
 * commit: `npm start`'s SERVICE_VERSION/GIT_COMMIT, else the image's APP_VERSION/APP_COMMIT (Dockerfile).
 */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env, argv1 = process.argv[1] ?? ''): TelemetrySettings {
  const app = /apps\/([^/]+)\//.exec(argv1)?.[1] ?? /tools\/([\w-]+)\.ts$/.exec(argv1)?.[1];
  const serviceName = env.OTEL_SERVICE_NAME || env.SERVICE || app || 'academy';
  const endpoint = env.OTEL_SDK_DISABLED === 'true' ? null : env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT || null;
  const asked = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf').trim().toLowerCase();
  const protocol: OtlpProtocol = asked === 'http/json' ? 'http/json' : 'http/protobuf';
  return {
    serviceName,
    endpoint,
    version: env.SERVICE_VERSION || env.APP_VERSION || undefined,
    commit: env.GIT_COMMIT || env.APP_COMMIT || undefined,
    edge: (env.TRACE_EDGE ?? (serviceName === 'gateway' ? 'true' : 'false')) === 'true',
    esmHook: env.TRACE_ESM_HOOK !== 'false',
    express: env.TRACE_EXPRESS === 'true',
    protocol,
    bindEmit: env.TRACE_BIND_EMIT !== 'false',
    exporter: (env.OTEL_TRACES_EXPORTER ?? '').trim().toLowerCase() === 'none' ? 'none' : 'otlp',
    disabledInstrumentations: (env.OTEL_NODE_DISABLED_INSTRUMENTATIONS ?? '').split(',').map((name) => name.trim().toLowerCase().replace(/^@opentelemetry\/instrumentation-/, '')).filter(Boolean),
    ...(asked !== protocol ? { protocolWarning: `OTLP protocol "${asked}" is not supported here (http/protobuf or http/json): exporting as http/protobuf` } : {}),
  };
}
