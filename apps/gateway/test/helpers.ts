import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as SocketIoServer } from 'socket.io';
import { TEST_KEYS_DIR, TEST_KID, testUrls, uniqueName } from '@academy/testing';
import { ConfigSchema, type Config } from '../src/config.ts';

/** Gateway settings for tests: port 0, test keys and Redis, counters under a fresh prefix. */
export function gatewayConfig(overrides: Record<string, string> = {}): Config {
  return ConfigSchema.parse({
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    JWT_KEYS_DIR: TEST_KEYS_DIR,
    JWT_KEY_IDS: TEST_KID,
    REDIS_URL: testUrls.redis,
    RATE_LIMIT_KEY_PREFIX: uniqueName('gw_rl'),
    ...overrides,
  });
}

const listen = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

/** A URL on which nothing listens: a port bound, then released. */
export async function deadUrl(): Promise<string> {
  const server = http.createServer();
  const url = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return url;
}

/** An upstream that accepts requests and never answers. */
export async function silentUpstream(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(() => {});
  const url = await listen(server);
  return {
    url,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Stands in for notifications, so the gateway is tested alone: Socket.IO on `/socket.io`, and an
 * echo of method, url and headers for every other request, so tests see what the gateway sent.
 */
export async function notificationsStandIn(options: { pingInterval?: number } = {}): Promise<{ url: string; io: SocketIoServer; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith('/socket.io')) return;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers }));
  });
  const io = new SocketIoServer(server, options.pingInterval ? { pingInterval: options.pingInterval } : {});
  io.on('connection', (socket) => socket.emit('hello', { authorization: socket.handshake.headers.authorization ?? null, query: socket.handshake.query }));
  const url = await listen(server);
  return {
    url,
    io,
    close: async () => {
      await io.close();
      server.closeAllConnections();
    },
  };
}
