import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { Logger } from './logger.ts';
import { flushTraces } from './telemetry.ts';

/**
 * Node refuses request headers over 16 KB with a bare 431 before the app sees them; the limit is
 * raised so that an oversized bearer token gets the route's JSON 401 instead.
 */
export const MAX_HEADER_BYTES = 192 * 1024;

/**
 * How long an idle keep-alive connection is kept open. Node's default, 5 s, races the gateway's pooled
 * connections: a request sent on a socket in the instant the service closes it fails with ECONNRESET,
 * and the gateway cannot send a POST again (its body is gone), so the client got a 502 (seen at load in
 * the console's tests). The server keeps idle connections 65 s, and its `Keep-Alive: timeout=65` answer
 * tells clients so (Node's agent then drops a free socket a second before); the gateway's agent drops
 * its own after 30 s (apps/gateway/src/proxy.ts), so it is always the client that closes first.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Listens on host:port and resolves with the server once bound; rejects with a clear message otherwise. */
export function listen(app: Express, port: number, host = '127.0.0.1'): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES, keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS }, app);
    server.listen(port, host);
    server.once('listening', () => resolve(server));
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new Error(`port ${port} on ${host} is already in use`) : error);
    });
  });
}

export function portOf(server: Server): number {
  return (server.address() as AddressInfo).port;
}

/** Stops accepting connections, lets in-flight requests finish (bounded), closes idle keep-alives. */
export function closeServer(server: Server, graceMs = 10_000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      resolve();
    }, graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/**
 * Runs `stop` once on SIGTERM/SIGINT: stop taking work, finish what is in flight, close
 * connections, exit. A second signal exits at once.
 */
export function onShutdown(logger: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    stop()
      .then(() => flushTraces())
      .then(() => {
        logger.info('stopped');
        process.exit(0);
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.once('SIGTERM', handle);
  process.once('SIGINT', handle);
}

/**
 * Runs a service's start-up; a failure (bad configuration, port in use, unreachable database)
 * prints one clear line and exits with status 1 instead of a stack trace.
 */
export async function runMain(start: () => Promise<unknown>): Promise<void> {
  try {
    await start();
  } catch (error) {
    const err = error as Error;
    process.stderr.write(`${err.name === 'ConfigError' ? '' : 'fatal: '}${err.message}\n`);
    if (process.env.DEBUG_STARTUP) process.stderr.write(`${err.stack}\n`);
    process.exit(1);
  }
}
