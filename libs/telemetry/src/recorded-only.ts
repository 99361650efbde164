import { context, trace } from '@opentelemetry/api';

type Patched = (this: unknown, ...args: unknown[]) => unknown;
type PatchFactory = (...args: unknown[]) => (original: Patched) => Patched;

/** Whether the active span is recorded (sampled): false with none, or with a trace sampled out. */
export const recordingNow = (): boolean => trace.getSpan(context.active())?.isRecording() === true;

/**
 * Makes the functions an instrumentation patches in (its `factories`, the methods that return
 * `(original) => patched`) call the original untouched unless the active span is recorded. The pg
 * and ioredis instrumentations' `requireParentSpan` only asks for *a* span: inside a trace the sampler
 * left out (90 % of them at 10 % sampling) they still built each query's attributes, parsed its SQL,
 * started a span that records nothing and chained two more promises on its result, per query. A
 * trace sampled out needs none of that: its context still travels (the http instrumentation, the
 * outbox), only spans that would be dropped are not made. Returns the instrumentation.
 */
export function onlyInRecordedTraces<T extends object>(instrumentation: T, factories: string[], recording: () => boolean = recordingNow): T {
  const methods = instrumentation as unknown as Record<string, PatchFactory | undefined>;
  for (const name of factories) {
    const factory = methods[name];
    if (typeof factory !== 'function') throw new Error(`telemetry: ${instrumentation.constructor.name} has no ${name}() to wrap (its version changed?)`);
    methods[name] = (...args: unknown[]) => {
      const wrap = factory.apply(instrumentation, args);
      return (original: Patched) => {
        const patched = wrap(original);
        return function (this: unknown, ...callArgs: unknown[]) {
          return recording() ? patched.apply(this, callArgs) : original.apply(this, callArgs);
        };
      };
    };
  }
  return instrumentation;
}
