import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createLogger } from '@academy/kit';
import { createServiceProxy, type ProxiedRequest } from '../src/proxy.ts';

/**
 * A client that leaves while the gateway still checks its request (the token and the rate limit wait on
 * Redis): the proxy is then called with a request already aborted. Before the guard, the proxy opened an
 * upstream request all the same, never ended it (the client's request never ends), and held the upstream
 * socket until the upstream timeout, which it then logged as a 504 of a client long gone.
 */
const upstreamConnections: net.Socket[] = [];
const upstream = http.createServer((_req, res) => res.end('{}'));
upstream.on('connection', (socket) => upstreamConnections.push(socket));
const failures: number[] = [];
const TIMEOUT_MS = 300;
let proxyOf: ReturnType<typeof createServiceProxy>;
let front: http.Server;
let calledWithAbortedRequest = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  proxyOf = createServiceProxy('academic', `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, TIMEOUT_MS, createLogger('gateway-test', 'silent'), (_service, status) => failures.push(status));
  // the gateway's edge, its awaits stood for by waiting until the client has gone
  front = http.createServer((req, res) => {
    req.once('close', () => {
      if (!req.destroyed) return;
      calledWithAbortedRequest++;
      void proxyOf(req as ProxiedRequest, res, () => undefined);
    });
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
  await new Promise((resolve) => front.close(resolve));
});

test('a request whose client left before the proxy was called sends nothing upstream and is not answered 504 later', async () => {
  // a complete GET, then the client closes its connection before any answer
  const client = net.connect((front.address() as AddressInfo).port, '127.0.0.1');
  await new Promise<void>((resolve) => client.once('connect', resolve));
  client.write('GET /api/v2/blocks/pending HTTP/1.1\r\nHost: gateway\r\n\r\n');
  await new Promise((resolve) => setTimeout(resolve, 50));
  client.destroy();
  // past the upstream timeout, when an upstream request left open would have failed as a 504
  await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS + 400));
  expect(calledWithAbortedRequest).toBe(1);
  expect(upstreamConnections.length).toBe(0);
  expect(failures).toEqual([]);
});
