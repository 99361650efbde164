import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Redis } from 'ioredis';
import { startFaultRedis, type RedisInstance } from '@academy/infra';
import { createRedis, createSocketIoRedis, RedisGate, redisReadiness, runReadiness } from '../src/index.ts';

/** How long `work` took, and whether it resolved or rejected. */
async function timed(work: () => Promise<unknown>): Promise<{ ms: number; ok: boolean }> {
  const started = performance.now();
  const ok = await work().then(
    () => true,
    () => false,
  );
  return { ms: performance.now() - started, ok };
}

const waitFor = async (what: string, probe: () => boolean, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

// A Redis of this test (free port), paused with SIGSTOP and stopped by pid: never the shared one.
describe('createRedis: a hung or stopped Redis costs a caller milliseconds, never a hang', () => {
  let server: RedisInstance;
  const clients: Redis[] = [];
  const client = (create: () => Redis) => {
    const created = create();
    created.on('error', () => undefined);
    clients.push(created);
    return created;
  };

  beforeAll(async () => {
    server = await startFaultRedis('kit');
  }, 30_000);
  afterAll(async () => {
    for (const created of clients) created.disconnect();
    await server?.destroy();
  });

  test('paused (SIGSTOP): a command fails within its timeout, which drops the connection, and the next ones fail at once; back when resumed', async () => {
    const redis = client(() => createRedis(server.url));
    await waitFor('ready', () => redis.status === 'ready', 15_000);
    await redis.set('k', 'v');
    const readiness = [redisReadiness(redis)];
    server.pause();
    try {
      const first = await timed(() => redis.get('k'));
      expect(first.ok).toBe(false);
      expect(first.ms).toBeLessThan(300);
      // The timeout dropped the connection (its close event follows within a tick): from then on commands fail at once.
      await waitFor('the connection to be dropped', () => redis.status !== 'ready', 50);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(redis.status).not.toBe('ready');
      const later = await Promise.all(Array.from({ length: 20 }, () => timed(() => redis.get('k'))));
      expect(later.every((result) => !result.ok)).toBe(true);
      expect(Math.max(...later.map((result) => result.ms))).toBeLessThan(20);
      const report = await runReadiness(readiness);
      expect(report).toMatchObject({ status: 'degraded', checks: { cache: { ok: false, critical: false } } });
      expect(report.checks.cache.ms).toBeLessThan(300);
    } finally {
      server.resume();
    }
    await waitFor('ready again', () => redis.status === 'ready', 10_000);
    expect(await redis.get('k')).toBe('v');
    expect((await runReadiness(readiness)).status).toBe('ready');
  }, 30_000);

  test('RedisGate: a cache skips Redis for the pause after a failed command, and warns at most once per interval', async () => {
    const redis = client(() => createRedis(server.url));
    await waitFor('ready', () => redis.status === 'ready', 5_000);
    let now = 1_000_000;
    const logged: { level: string; message: string }[] = [];
    const logger = { warn: (_: unknown, message: string) => logged.push({ level: 'warn', message }), debug: (_: unknown, message: string) => logged.push({ level: 'debug', message }) };
    const gate = new RedisGate(redis, logger as never, { pauseAfterFailureMs: 1000, warnEveryMs: 10_000, now: () => now });
    expect(gate.usable()).toBe(true);
    gate.failed(new Error('timed out'), 'read failed: computing');
    expect(gate.usable()).toBe(false);
    now += 999;
    expect(gate.usable()).toBe(false);
    now += 1;
    expect(gate.usable()).toBe(true);
    gate.failed(new Error('timed out'), 'read failed: computing');
    now += 10_000;
    gate.failed(new Error('timed out'), 'read failed: computing');
    expect(logged.map((entry) => entry.level)).toEqual(['warn', 'debug', 'warn']);
    redis.disconnect();
    await waitFor('not ready', () => redis.status !== 'ready', 5_000);
    now += 60_000;
    expect(gate.usable()).toBe(false);
  });

  test('stopped: commands fail at once; started again, the client reconnects by itself', async () => {
    const redis = client(() => createRedis(server.url));
    await waitFor('ready', () => redis.status === 'ready', 15_000);
    await server.stop();
    try {
      await waitFor('the loss to be seen', () => redis.status !== 'ready', 10_000);
      const results = await Promise.all(Array.from({ length: 20 }, () => timed(() => redis.incr('n'))));
      expect(results.every((result) => !result.ok)).toBe(true);
      expect(Math.max(...results.map((result) => result.ms))).toBeLessThan(20);
    } finally {
      await server.start();
    }
    await waitFor('ready again', () => redis.status === 'ready', 10_000);
    expect(await redis.incr('n')).toBe(1);
  }, 30_000);

  test("createSocketIoRedis: publishing fails fast, while its duplicates' blocking reads are not cut by the command timeout", async () => {
    const redis = client(() => createSocketIoRedis(server.url));
    const reader = client(() => redis.duplicate());
    await waitFor('ready', () => redis.status === 'ready' && reader.status === 'ready', 15_000);
    // A blocking read of 400 ms waits its 400 ms and returns null (a 100 ms command timeout would have cut it).
    const read = await timed(() => reader.xread('BLOCK', 400, 'STREAMS', 'sio-test', '$'));
    expect(read.ok).toBe(true);
    expect(read.ms).toBeGreaterThanOrEqual(350);
    server.pause();
    try {
      const publish = await timed(() => redis.xadd('sio-test', '*', 'k', 'v'));
      expect(publish.ok).toBe(false);
      expect(publish.ms).toBeLessThan(300);
    } finally {
      server.resume();
    }
  }, 30_000);
});
