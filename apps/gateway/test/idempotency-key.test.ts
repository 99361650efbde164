import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { startGateway, type RunningGateway } from '../src/gateway.ts';
import { gatewayConfig, notificationsStandIn } from './helpers.ts';

describe('Idempotency-Key at the gateway', () => {
  let upstream: Awaited<ReturnType<typeof notificationsStandIn>>;
  let gateway: RunningGateway;

  beforeAll(async () => {
    upstream = await notificationsStandIn();
    gateway = await startGateway(gatewayConfig({ NOTIFICATIONS_URL: upstream.url, ACADEMIC_URL: upstream.url }));
  });
  afterAll(async () => {
    await gateway.stop();
    await upstream.close();
  });

  // superagent sends an array as one header line per value; its types allow arrays for Cookie only
  const twoHeaders = ['aaa', 'bbb'] as unknown as string;
  test('two Idempotency-Key headers are 400 naming the header, and the request goes no further (the proxy would join them into one key "aaa, bbb")', async () => {
    const res = await request(gateway.url).post('/api/v2/auth/login').set('Idempotency-Key', twoHeaders).send({ email: 'a@b.c', password: 'x' });
    expect([res.status, res.body.code, res.body.message]).toEqual([400, 'INVALID_IDEMPOTENCY_KEY', 'Send one Idempotency-Key header, not several']);
    expect(res.body.method).toBeUndefined();
  });

  test('one key (even one with a comma) is passed on as it is', async () => {
    const res = await request(gateway.url).post('/api/v2/auth/login').set('Idempotency-Key', 'aaa, bbb').send({ email: 'a@b.c', password: 'x' });
    expect([res.status, res.body.method, res.body.headers['idempotency-key']]).toEqual([200, 'POST', 'aaa, bbb']);
  });
});
