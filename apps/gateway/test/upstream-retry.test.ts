import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { bearer } from '@academy/testing';
import { startGateway, type RunningGateway } from '../src/gateway.ts';
import { gatewayConfig } from './helpers.ts';

/**
 * A pod killed during a request, as the gateway sees it: the upstream resets the connection of the
 * first request of each method and path, and answers every later one.
 */
describe('an upstream that drops a request before answering', () => {
  const seen: string[] = [];
  const upstream = http.createServer((req, res) => {
    const key = `${req.method} ${req.url}`;
    seen.push(key);
    if (seen.filter((entry) => entry === key).length === 1) return void req.socket.destroy();
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ answered: key }));
  });
  let gateway: RunningGateway;

  beforeAll(async () => {
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    gateway = await startGateway(gatewayConfig({ HOURS_BANK_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}` }));
  });
  afterAll(async () => {
    await gateway.stop();
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  });

  const admin = bearer({ sub: '1', role: 'admin' });

  test('a GET is sent once more and answered: the client never sees the dropped attempt', async () => {
    const res = await request(gateway.url).get('/api/v2/hours-bank/41').set(admin);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ answered: 'GET /api/v2/hours-bank/41' });
    expect(seen.filter((entry) => entry === 'GET /api/v2/hours-bank/41')).toHaveLength(2);
  });

  test('a POST is not repeated: the client gets a 502 and the upstream saw it once', async () => {
    const res = await request(gateway.url).post('/api/v2/hours-bank/42/completed').set(admin).send({ time: '1h' });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: 'BAD_GATEWAY' });
    expect(seen.filter((entry) => entry === 'POST /api/v2/hours-bank/42/completed')).toHaveLength(1);
  });
});
