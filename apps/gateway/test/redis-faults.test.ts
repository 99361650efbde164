import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { startFaultRedis, type RedisInstance } from '@academy/infra';
import { bearer } from '@academy/testing';
import { startGateway, type RunningGateway } from '../src/gateway.ts';
import { gatewayConfig, notificationsStandIn } from './helpers.ts';

const BUDGET_MS = 200;

// A Redis of this test (free port), paused with SIGSTOP and stopped by pid: never the shared one.
describe('a hung or stopped Redis does not hang the gateway', () => {
  let redis: RedisInstance;
  let upstream: Awaited<ReturnType<typeof notificationsStandIn>>;
  let gateway: RunningGateway;

  beforeAll(async () => {
    [redis, upstream] = await Promise.all([startFaultRedis('gateway'), notificationsStandIn()]);
    // Every upstream is the stand-in (its /readyz answers 200), so readiness reflects Redis alone.
    const upstreams = { ACADEMIC_URL: upstream.url, HOURS_BANK_URL: upstream.url, INCIDENTS_URL: upstream.url, NOTIFICATIONS_URL: upstream.url, PAYSLIPS_URL: upstream.url };
    gateway = await startGateway(gatewayConfig({ REDIS_URL: redis.url, TOKEN_REVOCATION_CHECK_MS: '0', ...upstreams }));
  }, 30_000);
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
    await redis?.destroy();
  });

  /** Sequential authenticated requests through the gateway: statuses, the slowest and the median time. */
  const calls = async (count: number) => {
    const statuses: number[] = [];
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const res = await request(gateway.url).get('/api/v2/notifications/x').set(bearer({ sub: String(100 + i), role: 'user' }));
      times.push(performance.now() - started);
      statuses.push(res.status);
    }
    times.sort((a, b) => a - b);
    return { statuses, slowest: times[times.length - 1], median: times[Math.floor(times.length / 2)] };
  };
  /**
   * The slowest request with Redis healthy, measured just before a fault: what this (shared, busy)
   * machine adds to any request, so that the budget below measures what the fault costs.
   */
  const baseline = async () => {
    const healthy = await calls(10);
    expect(healthy.statuses.every((status) => status === 200)).toBe(true);
    return healthy.slowest;
  };
  const readiness = async () => {
    const started = performance.now();
    const res = await request(gateway.url).get('/readyz');
    return { status: res.status, body: res.body, ms: performance.now() - started };
  };
  const waitUntilReady = async () => {
    const deadline = Date.now() + 10_000;
    while ((await readiness()).body.status !== 'ready') {
      if (Date.now() > deadline) throw new Error('the gateway did not become ready again');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  test(`paused (SIGSTOP): every request still answers within ${BUDGET_MS} ms (over a healthy one) and /readyz says degraded; resumed, ready again`, async () => {
    await waitUntilReady();
    const machine = await baseline();
    redis.pause();
    try {
      // The first request waits out one command timeout (100 ms), which drops the connection; the next ones fall back at once.
      const { statuses, slowest, median } = await calls(30);
      expect(statuses.every((status) => status === 200)).toBe(true);
      expect(slowest).toBeLessThan(BUDGET_MS + machine);
      expect(median).toBeLessThan(50 + machine);
      const ready = await readiness();
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({ status: 'degraded', checks: { cache: { ok: false, critical: false } } });
      expect(ready.ms).toBeLessThan(BUDGET_MS);
    } finally {
      redis.resume();
    }
    await waitUntilReady();
  }, 30_000);

  test(`stopped: every request still answers within ${BUDGET_MS} ms (over a healthy one) and /readyz says degraded; started again, ready again`, async () => {
    await waitUntilReady();
    const machine = await baseline();
    await redis.stop();
    try {
      const { statuses, slowest, median } = await calls(30);
      expect(statuses.every((status) => status === 200)).toBe(true);
      expect(slowest).toBeLessThan(BUDGET_MS + machine);
      expect(median).toBeLessThan(50 + machine);
      expect((await readiness()).body).toMatchObject({ status: 'degraded', checks: { cache: { ok: false } } });
    } finally {
      await redis.start();
    }
    await waitUntilReady();
  }, 30_000);
});

describe('gateway readiness of a degraded service', () => {
  test('an upstream answering 200 degraded is ready, and the report names what it lacks', async () => {
    const server = http.createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ status: 'degraded', checks: { database: { ok: true }, cache: { ok: false, critical: false } } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const gateway = await startGateway(gatewayConfig({ ACADEMIC_URL: url, HOURS_BANK_URL: url, INCIDENTS_URL: url, NOTIFICATIONS_URL: url, PAYSLIPS_URL: url }));
    try {
      const res = await request(gateway.url).get('/readyz');
      expect(res.status).toBe(200);
      expect(res.body.checks['hours-bank']).toMatchObject({ ok: true, details: { status: 'degraded', failing: 'cache' } });
    } finally {
      await gateway.stop();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
