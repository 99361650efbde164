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

/**
 * A POST cannot be sent again, so the gateway must never write one to a pooled connection the service is
 * closing: it drops an idle connection itself, before the time the service announced (`Keep-Alive: timeout=N`).
 * Without an agent timeout Node's agent keeps a free socket until the server closes it, and a request sent
 * in that instant gets ECONNRESET: a 502 for the client.
 */
describe('idle connections to a service', () => {
  // when the connection that carried the proxied request closed
  let closedAt = 0;
  const upstream = http.createServer((req, res) => {
    if (req.url?.startsWith('/api/v2/hours-bank/')) req.socket.once('close', () => void (closedAt = performance.now()));
    res.setHeader('content-type', 'application/json');
    res.end('{}');
  });
  // the service announces 2 s; Node's agent keeps a free socket until a second before an announced time
  upstream.keepAliveTimeout = 2_000;
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

  test("a client's idle connection is kept 65 s, and the gateway's answers say so (Keep-Alive: timeout=65)", async () => {
    // an answer of the gateway's own (no token: 401); a proxied one carries the service's header, 65 s as well
    const res = await request(gateway.url).get('/api/v2/hours-bank/41').set('connection', 'keep-alive');
    expect(res.status).toBe(401);
    expect(res.headers['keep-alive']).toBe('timeout=65');
  });

  test('are closed by the gateway before the service would close them', async () => {
    // a browser's keep-alive request (supertest's default `Connection: close` would be passed on and close it)
    const res = await request(gateway.url).get('/api/v2/hours-bank/41').set(bearer({ sub: '1', role: 'admin' })).set('connection', 'keep-alive');
    expect(res.status).toBe(200);
    const answered = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 1_700));
    // closed by the gateway at ~1 s (the announced 2 s less Node's one-second margin), before the service's own 2 s
    expect(closedAt).toBeGreaterThan(answered);
    expect(closedAt - answered).toBeLessThan(1_700);
  });
});
