import http from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { Redis } from 'ioredis';
import { bearer, testUrls, tokenFor, uniqueName } from '@academy/testing';
import { startGateway, type RunningGateway } from '../src/gateway.ts';
import { leaseSize } from '../src/rate-limit.ts';
import { deadUrl, gatewayConfig, notificationsStandIn } from './helpers.ts';

describe('rate limits counted in Redis', () => {
  let notifications: Awaited<ReturnType<typeof notificationsStandIn>>;
  const gateways: RunningGateway[] = [];
  const start = async (overrides: Record<string, string>) => {
    const gateway = await startGateway(gatewayConfig({ NOTIFICATIONS_URL: notifications.url, ACADEMIC_URL: notifications.url, ...overrides }));
    gateways.push(gateway);
    return gateway;
  };

  beforeAll(async () => {
    notifications = await notificationsStandIn();
  });
  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.stop()));
    await notifications.close();
  });

  test('logins count only against the per-IP limit (failed logins are limited by academic, which knows the e-mail)', async () => {
    const gateway = await start({ RATE_LIMIT_IP_PER_MINUTE: '40' });
    const attempt = () => request(gateway.url).post('/api/v2/auth/login').set('x-forwarded-for', '10.0.0.1').send({ email: 'a@b.test', password: 'x' });
    const statuses = [];
    for (let i = 0; i < 41; i++) statuses.push((await attempt()).status);
    expect(statuses.slice(0, 40).every((status) => status === 200)).toBe(true);
    const refused = await attempt();
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  test('a user is limited across IPs, and two gateway instances share the count', async () => {
    const prefix = uniqueName('gw_rl_shared');
    const settings = { RATE_LIMIT_KEY_PREFIX: prefix, RATE_LIMIT_USER_PER_MINUTE: '4', RATE_LIMIT_IP_PER_MINUTE: '100' };
    const first = await start(settings);
    const second = await start(settings);
    const auth = bearer({ sub: '77', role: 'user' });
    const call = (gateway: RunningGateway, ip: string) => request(gateway.url).get('/api/v2/notifications/x').set(auth).set('x-forwarded-for', ip);
    const statuses = [(await call(first, '10.1.0.1')).status, (await call(second, '10.1.0.2')).status, (await call(first, '10.1.0.3')).status, (await call(second, '10.1.0.4')).status];
    expect(statuses).toEqual([200, 200, 200, 200]);
    const refused = await call(second, '10.1.0.5');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    expect((await request(first.url).get('/api/v2/notifications/x').set(bearer({ sub: '78', role: 'user' })).set('x-forwarded-for', '10.1.0.6')).status).toBe(200);
  });

  test('points are taken from Redis a sixtieth of the limit at a time, 1 to 10 (under 120 a minute counting stays exact)', () => {
    expect([40, 119, 120, 300, 600, 100_000_000].map(leaseSize)).toEqual([1, 1, 2, 5, 10, 10]);
  });

  test('a busy user costs Redis one count per lease of 10 points, and two gateways together still admit exactly the limit', async () => {
    const prefix = uniqueName('gw_rl_lease');
    const settings = { RATE_LIMIT_KEY_PREFIX: prefix, RATE_LIMIT_USER_PER_MINUTE: '600', RATE_LIMIT_IP_PER_MINUTE: '100000' };
    const first = await start(settings);
    const second = await start(settings);
    const call = (gateway: RunningGateway, sub: string) => request(gateway.url).get('/api/v2/notifications/x').set(bearer({ sub, role: 'user' }));
    const redis = new Redis(testUrls.redis);
    try {
      // The window is the test's: each counter is made first with an hour to live, which the limiter's own
      // `set … NX` keeps, so the 620 requests below, one after the other, stay in one window at any load (with the
      // limiter's minute a slow run saw the counter expire and more than 600 pass).
      for (const sub of ['301', '302']) await redis.set(`${prefix}:user:${sub}`, 0, 'EX', 3600);
      // 25 requests, in parallel bursts: three leases of 10 (concurrent requests share one lease call)
      for (let burst = 0; burst < 5; burst++) {
        const statuses = await Promise.all(Array.from({ length: 5 }, () => call(first, '301').then((res) => res.status)));
        expect(statuses).toEqual([200, 200, 200, 200, 200]);
      }
      expect(await redis.get(`${prefix}:user:301`)).toBe('30');

      const statuses: number[] = [];
      for (let i = 0; i < 620; i++) statuses.push((await call(i % 2 ? second : first, '302')).status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(600);
      expect(statuses.slice(600).every((status) => status === 429)).toBe(true);
      // the refusals are answered from memory once a lease came back empty: the counter stopped moving
      const counter = Number(await redis.get(`${prefix}:user:302`));
      expect(counter).toBeLessThanOrEqual(620);
      expect(counter).toBeGreaterThanOrEqual(600);
    } finally {
      redis.disconnect();
    }
    // 645 requests one after the other: ~3 s on a quiet machine, tens of seconds at load 40
  }, 120_000);

  test('signed-in users behind one address (a school) count against their own limits only, not the address\'s', async () => {
    const gateway = await start({ RATE_LIMIT_KEY_PREFIX: uniqueName('gw_rl_school'), RATE_LIMIT_IP_PER_MINUTE: '5', RATE_LIMIT_USER_PER_MINUTE: '3' });
    const call = (sub: string) => request(gateway.url).get('/api/v2/notifications/x').set(bearer({ sub, role: 'user' })).set('x-forwarded-for', '10.4.0.1');
    const statuses: number[] = [];
    for (let user = 1; user <= 10; user++) for (let i = 0; i < 3; i++) statuses.push((await call(String(200 + user))).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(30);
    // Each user still has their own limit, and the address's limit still holds for requests without a valid token.
    expect((await call('201')).status).toBe(429);
    const anonymous = () => request(gateway.url).get('/api/v2/notifications/x').set('x-forwarded-for', '10.4.0.1');
    const anonymousStatuses: number[] = [];
    for (let i = 0; i < 6; i++) anonymousStatuses.push((await anonymous()).status);
    expect(anonymousStatuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  test('the per-IP limit keys by the forwarded client only when the proxy is trusted (TRUST_PROXY)', async () => {
    const call = (gateway: RunningGateway, ip: string) => request(gateway.url).get('/api/v2/notifications/x').set('x-forwarded-for', ip);
    const trusting = await start({ RATE_LIMIT_KEY_PREFIX: uniqueName('gw_rl_trust'), RATE_LIMIT_IP_PER_MINUTE: '1' });
    expect([(await call(trusting, '10.3.0.1')).status, (await call(trusting, '10.3.0.2')).status]).toEqual([401, 401]);
    const distrusting = await start({ RATE_LIMIT_KEY_PREFIX: uniqueName('gw_rl_distrust'), RATE_LIMIT_IP_PER_MINUTE: '1', TRUST_PROXY: '10.255.255.254' });
    expect([(await call(distrusting, '10.3.0.1')).status, (await call(distrusting, '10.3.0.2')).status]).toEqual([401, 429]);
  });

  test('an IP is limited even when its tokens are bad', async () => {
    const gateway = await start({ RATE_LIMIT_IP_PER_MINUTE: '2' });
    const call = () => request(gateway.url).get('/api/v2/blocks/pending').set('x-forwarded-for', '10.2.0.1').set('authorization', 'Bearer guess');
    expect([(await call()).status, (await call()).status, (await call()).status]).toEqual([401, 401, 429]);
  });

  test('WebSocket upgrades count against the user limit too', async () => {
    const gateway = await start({ RATE_LIMIT_USER_PER_MINUTE: '1' });
    const token = tokenFor({ sub: '91', role: 'user' });
    const upgrade = () =>
      new Promise<number>((resolve) => {
        const req = http.request(`${gateway.url}/socket.io/?EIO=4&transport=websocket`, {
          headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', authorization: `Bearer ${token}` },
        });
        req.on('upgrade', (_res, socket) => {
          socket.destroy();
          resolve(101);
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.end();
      });
    expect(await upgrade()).toBe(101);
    expect(await upgrade()).toBe(429);
  });

  test('with Redis unreachable, requests still pass and each instance keeps counting in memory', async () => {
    const gateway = await start({ REDIS_URL: (await deadUrl()).replace('http', 'redis'), RATE_LIMIT_USER_PER_MINUTE: '2' });
    const call = () => request(gateway.url).get('/api/v2/notifications/x').set(bearer({ sub: '90', role: 'user' }));
    const statuses = [(await call()).status, (await call()).status, (await call()).status];
    expect(statuses).toEqual([200, 200, 429]);
  });
});
