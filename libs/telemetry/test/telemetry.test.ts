import { ROOT_CONTEXT, SpanKind, TraceFlags, trace } from '@opentelemetry/api';
import type { ExportResult } from '@opentelemetry/core';
import { SamplingDecision, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace';
import { describe, expect, jest, test } from '@jest/globals';
import { batchOptionsFromEnv, DroppingExporter, samplerFromEnv, settingsFromEnv } from '../src/index.ts';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
/** A context whose parent is a client's `traceparent` with the given sampled flag. */
const remoteParent = (sampled: boolean) =>
  trace.setSpanContext(ROOT_CONTEXT, { traceId: TRACE_ID, spanId: 'b7ad6b7169203331', traceFlags: sampled ? TraceFlags.SAMPLED : TraceFlags.NONE, isRemote: true });
const decide = (env: NodeJS.ProcessEnv, edge: boolean, sampled: boolean) =>
  samplerFromEnv(edge, env).shouldSample(remoteParent(sampled), TRACE_ID, 'GET /api/v2/x', SpanKind.SERVER, {}, []).decision;

describe('samplerFromEnv', () => {
  test("at the edge a client's sampled traceparent does not force recording: the gateway's own ratio decides", () => {
    const never = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' };
    expect(decide(never, true, true)).toBe(SamplingDecision.NOT_RECORD);
    expect(decide({ ...never, OTEL_TRACES_SAMPLER_ARG: '1' }, true, false)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
  });

  test("behind the edge a service follows its parent's decision (the gateway's, carried in the traceparent)", () => {
    const never = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' };
    expect(decide(never, false, true)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide({ OTEL_TRACES_SAMPLER_ARG: '1' }, false, false)).toBe(SamplingDecision.NOT_RECORD);
  });

  test('a ratio that is not a number between 0 and 1 is read as 1 (record), not as an error', () => {
    expect(decide({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: 'lots' }, true, false)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide({ OTEL_TRACES_SAMPLER: 'always_off' }, true, true)).toBe(SamplingDecision.NOT_RECORD);
  });
});

describe('settingsFromEnv', () => {
  test('tracing is off with no OTLP endpoint, or when OTEL_SDK_DISABLED is true', () => {
    expect(settingsFromEnv({}, '/repo/apps/academic/src/main.ts')).toEqual({ serviceName: 'academic', endpoint: null, version: undefined, commit: undefined, edge: false, esmHook: true, express: false, protocol: 'http/protobuf', bindEmit: true, exporter: 'otlp', disabledInstrumentations: [] });
    expect(settingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' }, '/repo/apps/academic/src/main.ts').endpoint).toBeNull();
  });

  test('the gateway is the edge; the service name, version and commit come from the environment', () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', SERVICE: 'gateway', SERVICE_VERSION: '1.1.1', GIT_COMMIT: 'abc123' };
    expect(settingsFromEnv(env, '/app/dist/main.js')).toEqual({ serviceName: 'gateway', endpoint: 'http://127.0.0.1:4318', version: '1.1.1', commit: 'abc123', edge: true, esmHook: true, express: false, protocol: 'http/protobuf', bindEmit: true, exporter: 'otlp', disabledInstrumentations: [] });
    expect(settingsFromEnv({ ...env, TRACE_ESM_HOOK: 'false' }, '/app/dist/main.js').esmHook).toBe(false);
    expect(settingsFromEnv({ ...env, TRACE_BIND_EMIT: 'false' }, '/app/dist/main.js').bindEmit).toBe(false);
  });

  test('OTEL_EXPORTER_OTLP_PROTOCOL chooses the encoding (the traces variable first); default http/protobuf; gRPC, not shipped, is http/protobuf with a warning', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
    expect(settingsFromEnv(endpoint, '/app/dist/main.js')).toMatchObject({ protocol: 'http/protobuf' });
    expect(settingsFromEnv(endpoint, '/app/dist/main.js').protocolWarning).toBeUndefined();
    expect(settingsFromEnv({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, '/app/dist/main.js').protocol).toBe('http/json');
    expect(settingsFromEnv({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' }, '/app/dist/main.js').protocol).toBe('http/protobuf');
    const grpc = settingsFromEnv({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, '/app/dist/main.js');
    expect(grpc.protocol).toBe('http/protobuf');
    expect(grpc.protocolWarning).toContain('"grpc" is not supported');
  });

  test('OTEL_TRACES_EXPORTER=none records spans without exporting them; OTEL_NODE_DISABLED_INSTRUMENTATIONS leaves the named instrumentations off', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
    expect(settingsFromEnv({ ...endpoint, OTEL_TRACES_EXPORTER: ' None ' }, '/app/dist/main.js').exporter).toBe('none');
    expect(settingsFromEnv({ ...endpoint, OTEL_TRACES_EXPORTER: 'otlp' }, '/app/dist/main.js').exporter).toBe('otlp');
    expect(settingsFromEnv({ ...endpoint, OTEL_TRACES_EXPORTER: 'console' }, '/app/dist/main.js').exporter).toBe('otlp');
    const disabled = { ...endpoint, OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'pg, @opentelemetry/instrumentation-ioredis,' };
    expect(settingsFromEnv(disabled, '/app/dist/main.js').disabledInstrumentations).toEqual(['pg', 'ioredis']);
  });

  test("in the image, version and commit are the build's APP_VERSION and APP_COMMIT (the Dockerfile's)", () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector.observability.svc:4318', SERVICE: 'payslips', APP_VERSION: '1.1.1', APP_COMMIT: 'def456' };
    expect(settingsFromEnv(env, '/app/dist/main.js')).toMatchObject({ serviceName: 'payslips', version: '1.1.1', commit: 'def456', edge: false });
  });
});

describe('batchOptionsFromEnv', () => {
  test('without OTEL_BSP_* batches are small and sent soon (256 spans or 250 ms), the queue bigger than the SDK’s (8192); the variables still decide', () => {
    expect(batchOptionsFromEnv({})).toEqual({ maxQueueSize: 8192, maxExportBatchSize: 256, scheduledDelayMillis: 250, exportTimeoutMillis: 30_000 });
    const env = { OTEL_BSP_MAX_QUEUE_SIZE: '1000', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '100', OTEL_BSP_SCHEDULE_DELAY: '500', OTEL_BSP_EXPORT_TIMEOUT: '2000' };
    expect(batchOptionsFromEnv(env)).toEqual({ maxQueueSize: 1000, maxExportBatchSize: 100, scheduledDelayMillis: 500, exportTimeoutMillis: 2000 });
  });

  test('a batch is never bigger than the queue (a small OTEL_BSP_MAX_QUEUE_SIZE alone caps it); a value that is not a number is ignored', () => {
    expect(batchOptionsFromEnv({ OTEL_BSP_MAX_QUEUE_SIZE: '100' })).toMatchObject({ maxQueueSize: 100, maxExportBatchSize: 100 });
    expect(batchOptionsFromEnv({ OTEL_BSP_MAX_EXPORT_BATCH_SIZE: 'many', OTEL_BSP_SCHEDULE_DELAY: '-1' })).toMatchObject({ maxExportBatchSize: 256, scheduledDelayMillis: 250 });
  });
});

describe('DroppingExporter', () => {
  test('failed exports are dropped and said on stderr at most once a minute, with the count lost since the last warning', () => {
    let now = Date.parse('2026-11-27T10:00:00Z');
    const failing: SpanExporter = {
      export: (_spans, done) => done({ code: 1, error: new Error('connect ECONNREFUSED 127.0.0.1:4318') } as ExportResult),
      shutdown: async () => {},
    };
    const exporter = new DroppingExporter(failing, 'academic', () => now);
    const write = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const spans = (count: number) => Array.from({ length: count }) as ReadableSpan[];
      const results: number[] = [];
      exporter.export(spans(3), (result) => results.push(result.code));
      now += 30_000;
      exporter.export(spans(2), (result) => results.push(result.code));
      now += 31_000;
      exporter.export(spans(4), (result) => results.push(result.code));
      expect(results).toEqual([1, 1, 1]);
      const lines = write.mock.calls.map(([line]) => JSON.parse(String(line)) as { msg: string; err: string });
      expect(lines.map((line) => line.msg)).toEqual([
        'telemetry: 3 span(s) dropped, the collector did not take them',
        'telemetry: 6 span(s) dropped, the collector did not take them',
      ]);
      expect(lines[0]!.err).toBe('connect ECONNREFUSED 127.0.0.1:4318');
    } finally {
      write.mockRestore();
    }
  });
});
