import { describe, expect, test } from '@jest/globals';
import { serviceSlot } from '../src/harness.ts';

/** A start the test finishes when it chooses. */
function pendingStart<S>() {
  let finish!: (service: S) => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<S>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return { start: () => promise, finish, fail };
}

describe('serviceSlot (useService: a service stopped even when its start outlives its hook)', () => {
  test('when the stop is asked for while the start still runs, then the service is stopped once its start finishes', async () => {
    const { start, finish } = pendingStart<string>();
    const stopped: string[] = [];
    const slot = serviceSlot(start, async (service) => void stopped.push(service));
    void slot.begin();
    const ending = slot.end();
    expect(stopped).toEqual([]);
    finish('late service');
    await ending;
    expect(stopped).toEqual(['late service']);
  });

  test('when the start finished first, then the service is the current one and is stopped once however often end is called', async () => {
    const stopped: string[] = [];
    const slot = serviceSlot(async () => 'service', async (service) => void stopped.push(service));
    expect(await slot.begin()).toBe('service');
    expect(slot.current()).toBe('service');
    await slot.end();
    await slot.end();
    expect(stopped).toEqual(['service']);
    expect(slot.current()).toBeUndefined();
  });

  test('when the start fails, then end stops nothing and does not throw', async () => {
    const { start, fail } = pendingStart<string>();
    const stopped: string[] = [];
    const slot = serviceSlot(start, async (service) => void stopped.push(service));
    const beginning = slot.begin();
    fail(new Error('no database'));
    await expect(beginning).rejects.toThrow('no database');
    await slot.end();
    expect(stopped).toEqual([]);
  });

  test('when nothing was started, then end does nothing', async () => {
    const stopped: string[] = [];
    await serviceSlot(async () => 'service', async (service) => void stopped.push(service)).end();
    expect(stopped).toEqual([]);
  });
});
