import { EventEmitter } from 'node:events';
import type { Context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';

/** Marks an emitter already bound to a context: the first binding wins, as with the SDK's manager. */
const BOUND = Symbol('academy.telemetry.boundEmitter');

type Emitter = EventEmitter & { [BOUND]?: true };

/**
 * OpenTelemetry's AsyncLocalStorage context manager, except for event emitters. `context.bind(ctx,
 * emitter)` (the http instrumentation binds each request and response it traces; the edge binds the
 * proxied request) makes the emitter's listeners run in `ctx`. The SDK's manager does it per
 * listener: it replaces eight methods of the emitter (`on`, `once`, `removeListener`, …) with
 * closures, keeps a WeakMap per event name and wraps every listener added afterwards in a closure
 * that enters the context on each call (a request proxied through the gateway gets about ten
 * listeners). Here the emitter's `emit` is wrapped once instead: each event runs its listeners in
 * `ctx`, one AsyncLocalStorage `run` per event whatever the number of listeners, and listeners are
 * added and removed untouched (no wrapper to find on removal). Listeners added before the binding
 * also run in `ctx` (Node's own, on a request's response); functions are bound as the SDK binds them.
 */
export class EmitBindingContextManager extends AsyncLocalStorageContextManager {
  override bind<T>(context: Context, target: T): T {
    if (!(target instanceof EventEmitter)) return super.bind(context, target);
    const emitter = target as Emitter;
    if (emitter[BOUND]) return target;
    emitter[BOUND] = true;
    const storage = (this as unknown as { _asyncLocalStorage: { run<R>(store: Context, callback: (...args: unknown[]) => R, ...args: unknown[]): R } })._asyncLocalStorage;
    const emit = emitter.emit;
    emitter.emit = function (this: EventEmitter, ...args: Parameters<EventEmitter['emit']>) {
      return storage.run(context, Reflect.apply as (...args: unknown[]) => boolean, emit, this, args);
    };
    return target;
  }
}
