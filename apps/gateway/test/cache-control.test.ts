import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { bearer } from '@academy/testing';
import { startGateway, type RunningGateway } from '../src/gateway.ts';
import { gatewayConfig } from './helpers.ts';

describe('Cache-Control of answers proxied by the gateway', () => {
  let upstream: Server;
  let gateway: RunningGateway;

  beforeAll(async () => {
    // An upstream that sets no Cache-Control, except on the paths ending in /own-cache.
    upstream = http.createServer((req, res) => {
      if (req.url?.endsWith('/own-cache')) res.setHeader('cache-control', 'private, max-age=60');
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    gateway = await startGateway(gatewayConfig({ ACADEMIC_URL: url, HOURS_BANK_URL: url, NOTIFICATIONS_URL: url }));
  });
  afterAll(async () => {
    await gateway?.stop();
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  });

  test('an authenticated answer without a Cache-Control of its own gets no-store; one the service set is kept', async () => {
    const admin = bearer({ role: 'admin', sub: '1' });
    const plain = await request(gateway.url).get('/api/v2/hours-bank/1').set(admin);
    expect([plain.status, plain.headers['cache-control']]).toEqual([200, 'no-store']);
    const own = await request(gateway.url).get('/api/v2/hours-bank/1/own-cache').set(admin);
    expect([own.status, own.headers['cache-control']]).toEqual([200, 'private, max-age=60']);
  });

  test('an API-key route is no-store too; a public route is left as the service answers it', async () => {
    const sent = await request(gateway.url).post('/api/v2/push-notifications/send').set('x-api-key', 'any').send({});
    expect([sent.status, sent.headers['cache-control']]).toEqual([200, 'no-store']);
    const login = await request(gateway.url).post('/api/v2/auth/login').send({});
    expect([login.status, login.headers['cache-control']]).toEqual([200, undefined]);
  });
});
