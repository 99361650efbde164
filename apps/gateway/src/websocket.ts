import type { IncomingMessage, Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { TokenVerifier } from '@academy/auth';
import { REQUEST_ID_HEADER, type Logger } from '@academy/kit';
import { dropQueryToken, tokenOf } from './edge.ts';
import type { ServiceProxy } from './proxy.ts';
import { TooManyRequestsError, type RateLimits } from './rate-limit.ts';
import { matchRoute } from './route-table.ts';

function refuse(socket: Duplex, status: number, reason: string, body: Record<string, unknown>): void {
  const json = JSON.stringify(body);
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`);
}

/**
 * WebSocket upgrades of `/socket.io` go to notifications. A token in the upgrade's Authorization
 * header is checked here and a bad one refused before a byte reaches it. An upgrade without one is
 * passed on: the Socket.IO client's `auth: { token }` travels in the CONNECT packet after the
 * upgrade, where only notifications reads it, and notifications verifies every socket itself
 * (signature, claims, ended sessions) before it joins a room. A `?token=` is never read, and is
 * dropped from the URL before it goes on.
 */
export function handleUpgrades(server: Server, deps: { verifier: TokenVerifier; limits: RateLimits; proxy: ServiceProxy; logger: Logger }): void {
  server.on('upgrade', async (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', (error) => deps.logger.debug({ err: error }, 'websocket client socket error'));
    const path = (req.url ?? '/').split('?')[0];
    const rule = matchRoute(path);
    if (!rule || rule.prefix !== '/socket.io') return refuse(socket, 404, 'Not Found', { success: false, message: 'No WebSocket endpoint here' });
    const token = tokenOf(req);
    const claims = token ? await deps.verifier.authenticate(token) : null;
    try {
      await deps.limits.check(claims ? { userId: claims.sub } : { ip: req.socket.remoteAddress ?? 'unknown' });
    } catch (error) {
      const retryAfter = error instanceof TooManyRequestsError ? error.headers?.['retry-after'] : '1';
      socket.end(`HTTP/1.1 429 Too Many Requests\r\nRetry-After: ${retryAfter}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      return;
    }
    if (token && !claims) return refuse(socket, 401, 'Unauthorized', { success: false, message: rule.unauthorizedMessage, code: 'UNAUTHORIZED' });
    dropQueryToken(req);
    const incoming = req.headers[REQUEST_ID_HEADER];
    if (typeof incoming !== 'string' || !incoming) req.headers[REQUEST_ID_HEADER] = randomUUID();
    deps.proxy.upgrade(req, socket as Socket, head);
  });
}
