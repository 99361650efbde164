// An event emitter bound to a context by wrapping its `emit` once (context.ts): its listeners run in
// that context whoever emits, are removed as they were added, and a second binding changes nothing.
import { EventEmitter } from 'node:events';
import { describe, expect, test } from '@jest/globals';
import { createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';
import { EmitBindingContextManager } from '../src/context.ts';

const KEY = createContextKey('test');
const named = (name: string) => ROOT_CONTEXT.setValue(KEY, name);

describe('EmitBindingContextManager', () => {
  const manager = new EmitBindingContextManager().enable();
  const seen = () => manager.active().getValue(KEY) ?? 'none';

  test("a bound emitter's listeners, added before or after the binding, run in its context when emitted from another", () => {
    const emitter = new EventEmitter();
    const heard: unknown[] = [];
    emitter.on('go', () => heard.push(['before', seen()]));
    manager.bind(named('request'), emitter);
    emitter.on('go', (value: number) => heard.push(['on', seen(), value]));
    emitter.once('go', () => heard.push(['once', seen()]));
    emitter.prependListener('go', () => heard.push(['prepended', seen()]));
    manager.with(named('other'), () => emitter.emit('go', 7));
    manager.with(named('other'), () => emitter.emit('go', 8));
    expect(heard).toEqual([
      ['prepended', 'request'],
      ['before', 'request'],
      ['on', 'request', 7],
      ['once', 'request'],
      ['prepended', 'request'],
      ['before', 'request'],
      ['on', 'request', 8],
    ]);
    expect(seen()).toBe('none');
  });

  test('listeners are removed as they were added (off, removeListener, removeAllListeners), and emit answers whether any listened', () => {
    const emitter = manager.bind(named('request'), new EventEmitter());
    const calls: string[] = [];
    const first = () => calls.push('first');
    const second = () => calls.push('second');
    emitter.on('go', first).on('go', second);
    emitter.off('go', first);
    expect(emitter.emit('go')).toBe(true);
    emitter.removeListener('go', second);
    expect(emitter.emit('go')).toBe(false);
    emitter.on('go', first);
    emitter.removeAllListeners();
    expect(emitter.emit('go')).toBe(false);
    expect(calls).toEqual(['second']);
  });

  test('the first binding wins, as with the SDK manager; functions are bound as it binds them', () => {
    const emitter = manager.bind(named('first'), new EventEmitter());
    const emit = emitter.emit;
    manager.bind(named('second'), emitter);
    expect(emitter.emit).toBe(emit);
    let heard = '';
    emitter.on('go', () => (heard = String(seen())));
    emitter.emit('go');
    expect(heard).toBe('first');
    const bound = manager.bind(named('function'), function add(a: number, b: number) {
      return `${String(seen())} ${a + b}`;
    });
    expect(bound.length).toBe(2);
    expect(bound(1, 2)).toBe('function 3');
  });

  test('an error thrown by a listener reaches the emitter, and the context is left as it was', () => {
    const emitter = manager.bind(named('request'), new EventEmitter());
    emitter.on('go', () => {
      throw new Error('listener failed');
    });
    expect(() => manager.with(named('caller'), () => emitter.emit('go'))).toThrow('listener failed');
    expect(seen()).toBe('none');
  });
});
