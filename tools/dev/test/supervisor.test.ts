import { EventEmitter } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import { waitFor } from '@academy/infra';
import { spawnLogged, type LoggedChild } from '../processes.ts';
import { nextDelay, Supervisor, type Timers } from '../supervisor.ts';

/** Time that moves only when the test says so. */
class ManualTimers implements Timers {
  time = 0;
  #due: { at: number; run: () => void }[] = [];

  now() {
    return this.time;
  }
  setTimeout(run: () => void, ms: number) {
    const timer = { at: this.time + ms, run };
    this.#due.push(timer);
    return timer;
  }
  clearTimeout(handle: unknown) {
    this.#due = this.#due.filter((timer) => timer !== handle);
  }
  advance(ms: number) {
    const until = this.time + ms;
    for (;;) {
      const next = this.#due.filter((timer) => timer.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.clearTimeout(next);
      this.time = next.at;
      next.run();
    }
    this.time = until;
  }
}

/** A process stand-in that exits when the test says so, or when killed. */
function fakeChild(pid: number): ChildProcess {
  const child = Object.assign(new EventEmitter(), { pid, exitCode: null as number | null, signalCode: null as NodeJS.Signals | null });
  const kill = (signal: NodeJS.Signals = 'SIGTERM') => {
    exit(child as unknown as ChildProcess, null, signal);
    return true;
  };
  // Only what the supervisor and stopChild use of a ChildProcess.
  return Object.assign(child, { kill }) as unknown as ChildProcess;
}

function exit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null = null) {
  Object.assign(child, { exitCode: code, signalCode: signal });
  child.emit('exit', code, signal);
}

function supervised(name = 'incidents') {
  const timers = new ManualTimers();
  const spawned: LoggedChild[] = [];
  const reports: string[] = [];
  const supervisor = new Supervisor({
    spawn: () => {
      const started = { name, child: fakeChild(spawned.length + 1), logFile: `${name}.log` };
      spawned.push(started);
      return started;
    },
    report: (line) => reports.push(line),
    timers,
  });
  const last = () => spawned[spawned.length - 1].child;
  return { supervisor, timers, spawned, reports, last };
}

describe('nextDelay', () => {
  test('waits 1 s after the first exit, then twice as long each time, at most 30 s', () => {
    const delays: number[] = [];
    let last: number | null = null;
    for (let i = 0; i < 8; i++) delays.push((last = nextDelay(last, 500)));
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });

  test('starts over at 1 s after a process stayed up a minute, not after 59.9 s', () => {
    expect(nextDelay(16_000, 60_000)).toBe(1000);
    expect(nextDelay(30_000, 3_600_000)).toBe(1000);
    expect(nextDelay(16_000, 59_900)).toBe(30_000);
  });
});

describe('Supervisor, with the time pinned', () => {
  test('a process that keeps exiting with code 1 is started again after 1, 2, 4, 8, 16, 30 and 30 s, never sooner, each exit logged', () => {
    const { supervisor, timers, spawned, reports, last } = supervised();
    supervisor.start();
    for (const seconds of [1, 2, 4, 8, 16, 30, 30]) {
      exit(last(), 1);
      expect(reports.at(-1)).toBe(`incidents exited (code 1); restarting in ${seconds} s`);
      const before = spawned.length;
      timers.advance(seconds * 1000 - 1);
      expect(spawned).toHaveLength(before);
      timers.advance(1);
      expect(spawned).toHaveLength(before + 1);
    }
    expect(supervisor.restarts).toBe(7);
    expect(supervisor.running).toBe(true);
  });

  test('a process killed by a signal is logged with the signal', () => {
    const { supervisor, reports, last } = supervised();
    supervisor.start();
    exit(last(), null, 'SIGKILL');
    expect(reports).toEqual(['incidents exited (signal SIGKILL); restarting in 1 s']);
  });

  test('after a minute up, the next exit waits 1 s again; after less, the wait keeps doubling', () => {
    const { supervisor, timers, reports, last } = supervised();
    supervisor.start();
    exit(last(), 1);
    timers.advance(1000);
    exit(last(), 1);
    timers.advance(2000);
    timers.advance(59_999);
    exit(last(), 1);
    expect(reports.at(-1)).toBe('incidents exited (code 1); restarting in 4 s');
    timers.advance(4000);
    timers.advance(60_000);
    exit(last(), 1);
    expect(reports.at(-1)).toBe('incidents exited (code 1); restarting in 1 s');
  });

  test('stop() cancels a pending restart: nothing is started again, however long after', async () => {
    const { supervisor, timers, spawned, reports, last } = supervised();
    supervisor.start();
    exit(last(), 1);
    await supervisor.stop();
    timers.advance(3_600_000);
    expect(spawned).toHaveLength(1);
    expect(reports).toHaveLength(1);
    expect(supervisor.running).toBe(false);
  });

  test('stop() of a running process: it is signalled, and its exit is neither logged nor followed by a restart', async () => {
    const { supervisor, timers, spawned, reports, last } = supervised();
    supervisor.start();
    const signals: unknown[] = [];
    last().once('exit', (_code, signal) => signals.push(signal));
    await supervisor.stop();
    timers.advance(3_600_000);
    expect(signals).toEqual(['SIGTERM']);
    expect(spawned).toHaveLength(1);
    expect(reports).toEqual([]);
  });

  test('start() during a pending restart starts it at once, and the next exit waits 1 s', () => {
    const { supervisor, timers, spawned, reports, last } = supervised();
    supervisor.start();
    exit(last(), 1);
    timers.advance(1000);
    exit(last(), 1);
    expect(reports.at(-1)).toMatch(/restarting in 2 s$/);
    supervisor.start();
    expect(spawned).toHaveLength(3);
    timers.advance(3000);
    expect(spawned).toHaveLength(3);
    exit(last(), 1);
    expect(reports.at(-1)).toMatch(/restarting in 1 s$/);
  });
});

describe('Supervisor, with real processes', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'academy-supervisor-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // Short waits so the test takes a fraction of a second; the schedule itself is pinned above.
  const backoff = { firstMs: 50, maxMs: 200, resetAfterMs: 60_000 };
  const node = (name: string, script: string) => () => spawnLogged(name, process.execPath, ['-e', script], { logFile: path.join(dir, `${name}.log`) });
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  test('a process that exits with code 1 is started again with a growing wait, and stop() ends it for good', async () => {
    const reports: string[] = [];
    const supervisor = new Supervisor({ spawn: node('flaky', 'process.exit(1)'), report: (line) => reports.push(line), backoff });
    const first = supervisor.start();
    await waitFor('three restarts', () => supervisor.restarts >= 3, 10_000, 10);
    expect(reports.slice(0, 3)).toEqual(['flaky exited (code 1); restarting in 0.05 s', 'flaky exited (code 1); restarting in 0.1 s', 'flaky exited (code 1); restarting in 0.2 s']);
    expect(supervisor.current!.child.pid).not.toBe(first.child.pid);

    await supervisor.stop();
    const restarts = supervisor.restarts;
    await sleep(3 * backoff.maxMs);
    expect(supervisor.restarts).toBe(restarts);
    expect(supervisor.running).toBe(false);
  });

  test('a running process killed with SIGKILL from outside comes back with a new pid; stop() then stops it for good', async () => {
    const reports: string[] = [];
    const supervisor = new Supervisor({ spawn: node('steady', 'setInterval(() => {}, 1000)'), report: (line) => reports.push(line), backoff });
    const first = supervisor.start().child;
    await waitFor('the first process', () => first.pid !== undefined, 5000, 10);
    process.kill(first.pid!, 'SIGKILL');
    await waitFor('a new process', () => supervisor.running && supervisor.current!.child !== first, 10_000, 10);
    expect(reports).toEqual(['steady exited (signal SIGKILL); restarting in 0.05 s']);

    const second = supervisor.current!.child;
    await supervisor.stop();
    expect(second.signalCode).toBe('SIGTERM');
    await sleep(3 * backoff.maxMs);
    expect(supervisor.running).toBe(false);
    expect(supervisor.restarts).toBe(1);
    expect(reports).toHaveLength(1);
  });
});
