// The pg and ioredis instrumentations make spans only inside a recorded trace: a query made in a trace
// the sampler left out (or in none) runs the driver's own function, untouched.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { context, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { AlwaysOffSampler, AlwaysOnSampler, TracerProvider } from '@opentelemetry/sdk-trace';
import { onlyInRecordedTraces, withoutPoolPatches } from '../src/index.ts';

type Query = (this: unknown, ...args: unknown[]) => unknown;

describe('onlyInRecordedTraces', () => {
  const contextManager = new AsyncLocalStorageContextManager();
  beforeAll(() => {
    context.setGlobalContextManager(contextManager.enable());
  });
  afterAll(() => context.disable());

  test('the patched function runs inside a recorded span; with a span sampled out, or none, the original runs', () => {
    const calls: string[] = [];
    const instrumentation = {
      _getClientQueryPatch: () => (original: Query) =>
        function (this: unknown, ...args: unknown[]) {
          calls.push('instrumented');
          return original.apply(this, args);
        },
    };
    const query = onlyInRecordedTraces(instrumentation, ['_getClientQueryPatch'])._getClientQueryPatch()(function (this: unknown) {
      calls.push('driver');
      return 'rows';
    });
    const recorded = new TracerProvider({ sampler: new AlwaysOnSampler() }).getTracer('test').startSpan('recorded');
    const sampledOut = new TracerProvider({ sampler: new AlwaysOffSampler() }).getTracer('test').startSpan('sampled out');

    expect(context.with(trace.setSpan(ROOT_CONTEXT, recorded), () => query())).toBe('rows');
    expect(calls.splice(0)).toEqual(['instrumented', 'driver']);
    expect(context.with(trace.setSpan(ROOT_CONTEXT, sampledOut), () => query())).toBe('rows');
    expect(calls.splice(0)).toEqual(['driver']);
    expect(query()).toBe('rows');
    expect(calls.splice(0)).toEqual(['driver']);
  });

  test('the pg and ioredis instrumentations of this version have the patch factories it wraps (a rename fails here, not silently)', () => {
    expect(() => onlyInRecordedTraces(new PgInstrumentation({ enabled: false }), ['_getClientQueryPatch'])).not.toThrow();
    expect(() => onlyInRecordedTraces(new IORedisInstrumentation({ enabled: false }), ['_patchSendCommand'])).not.toThrow();
    expect(() => onlyInRecordedTraces(new PgInstrumentation({ enabled: false }), ['_noSuchPatch'])).toThrow(/no _noSuchPatch/);
  });

  test("pg's pool keeps its own connect (no connect spans, no pool metrics: the wrapper would only look for a span per checkout) and adds no listeners", () => {
    const pg = withoutPoolPatches(new PgInstrumentation({ enabled: false })) as unknown as { _getPoolConnectPatch(): (original: Query) => Query; _setPoolConnectEventListeners(pool: object): void };
    const connect: Query = () => 'client';
    expect(pg._getPoolConnectPatch()(connect)).toBe(connect);
    const pool = { on: () => { throw new Error('a listener was added'); } };
    expect(() => pg._setPoolConnectEventListeners(pool)).not.toThrow();
  });
});
