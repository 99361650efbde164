import { describe, expect, test } from '@jest/globals';
import { runEvery } from '../src/index.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('runEvery', () => {
  test('never runs two of its works at once, and stop waits for the run in flight', async () => {
    let running = 0;
    let mostAtOnce = 0;
    let finished = 0;
    const stop = runEvery(5, async () => {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      await sleep(40);
      running -= 1;
      finished += 1;
    }, () => undefined);
    await sleep(100);
    await stop();
    expect(running).toBe(0);
    expect(finished).toBeGreaterThanOrEqual(1);
    expect(mostAtOnce).toBe(1);
    const after = finished;
    await sleep(50);
    expect(finished).toBe(after);
  });

  test('a failed run is reported and the next tick runs again', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const stop = runEvery(5, async () => {
      runs += 1;
      if (runs === 1) throw new Error('first run fails');
    }, (error) => errors.push(error));
    while (runs < 2) await sleep(5);
    await stop();
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('first run fails');
  });

  test('an interval of 0 schedules nothing', async () => {
    let runs = 0;
    const stop = runEvery(0, async () => {
      runs += 1;
    }, () => undefined);
    await sleep(20);
    await stop();
    expect(runs).toBe(0);
  });
});
