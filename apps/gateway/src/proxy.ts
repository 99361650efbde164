import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import { createProxyMiddleware, type RequestHandler } from 'http-proxy-middleware';
import { AppError, type Logger } from '@academy/kit';
import { answerError } from './answer.ts';
import type { Config } from './config.ts';
import type { ServiceName } from './route-table.ts';

export type Upstreams = Record<ServiceName, string>;

/** A request on its way through a service proxy (plain Node objects: the gateway's proxied routes run without Express). */
export type ProxiedRequest = IncomingMessage & { log?: Logger; proxyStarted?: number; upstreamRetried?: boolean };
export type ServiceProxy = RequestHandler<ProxiedRequest, ServerResponse>;

export function upstreamsOf(config: Config): Upstreams {
  return { academic: config.ACADEMIC_URL, 'hours-bank': config.HOURS_BANK_URL, incidents: config.INCIDENTS_URL, notifications: config.NOTIFICATIONS_URL, payslips: config.PAYSLIPS_URL };
}

/** Why an upstream failed, as the client sees it: down (503), silent too long (504), anything else (502). */
export function upstreamFailure(error: NodeJS.ErrnoException, service: ServiceName): { status: number; code: string; message: string } {
  if (error.code === 'ECONNREFUSED' || error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN')
    return { status: 503, code: 'SERVICE_UNAVAILABLE', message: `The ${service} service is unavailable` };
  if (error.code === 'UPSTREAM_TIMEOUT') return { status: 504, code: 'UPSTREAM_TIMEOUT', message: `The ${service} service did not answer in time` };
  return { status: 502, code: 'BAD_GATEWAY', message: `The ${service} service failed to answer` };
}

/** Safe to send twice: no body was consumed and the service changes nothing for them. */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * Failures that happen before the service could have acted: refused (its pod is gone) or reset
 * (a kept-alive socket that the service, or a pod being replaced, closed). A timeout is not
 * retried: it would double the wait.
 */
const RETRIED_FAILURES = new Set(['ECONNREFUSED', 'ECONNRESET']);

/** How long the gateway keeps an idle connection to a service: less than the service's own 65 s. */
export const FREE_SOCKET_TIMEOUT_MS = 30_000;

/**
 * One proxy per service over a keep-alive agent. A request silent for `timeoutMs` is aborted;
 * every failure becomes a JSON error in the route family's style, never a hang. An idempotent
 * request that failed before any answer is sent once more (in Kubernetes the Service picks
 * another pod); any other request gets its 502/503 at once.
 */
export function createServiceProxy(
  service: ServiceName,
  target: string,
  timeoutMs: number,
  logger: Logger,
  onDone: (service: ServiceName, status: number, seconds: number) => void,
): ServiceProxy {
  // No maxSockets: a request never queues for a socket, where the upstream timeout would not yet run.
  // A free socket is dropped after 30 s idle, well before the service closes it (65 s, KEEP_ALIVE_TIMEOUT_MS
  // in libs/kit), so a request is never written to a socket the service is closing (a POST cannot be resent).
  const agent = new http.Agent({ keepAlive: true, maxFreeSockets: 64, timeout: FREE_SOCKET_TIMEOUT_MS });
  const proxy: ServiceProxy = createProxyMiddleware<ProxiedRequest, ServerResponse>({
    target,
    agent,
    xfwd: true,
    on: {
      proxyReq: (proxyReq, req) => {
        req.proxyStarted = performance.now();
        proxyReq.setTimeout(timeoutMs, () => {
          proxyReq.destroy(Object.assign(new Error(`no answer from ${service} within ${timeoutMs} ms`), { code: 'UPSTREAM_TIMEOUT' }));
        });
      },
      proxyRes: (proxyRes, req) => {
        const started = req.proxyStarted;
        if (started !== undefined) onDone(service, proxyRes.statusCode ?? 0, (performance.now() - started) / 1000);
      },
      error: (error, req, res) => {
        const failure = upstreamFailure(error as NodeJS.ErrnoException, service);
        if (!('writeHead' in res)) {
          (res as Socket).destroy();
          return;
        }
        const response = res as ServerResponse;
        const code = (error as NodeJS.ErrnoException).code ?? '';
        const log = req.log ?? logger;
        if (IDEMPOTENT_METHODS.has(req.method ?? '') && RETRIED_FAILURES.has(code) && !req.upstreamRetried && !response.headersSent) {
          req.upstreamRetried = true;
          log.info({ err: error, service }, 'upstream failed before answering; idempotent request sent once more');
          void unlessClientLeft(req, response, () => undefined);
          return;
        }
        log.warn({ err: error, service }, 'upstream failed');
        onDone(service, failure.status, 0);
        answerError(req, response, new AppError(failure.status, failure.code, failure.message), logger);
      },
    },
  });
  // A client that left while the gateway checked its request (the token and the rate limit wait on Redis)
  // gets nothing sent upstream. The proxy would open an upstream request all the same, and its watch of
  // the client's response (`res` 'close', which aborts the upstream request) would come too late to see
  // the close: the request, never ended, held an upstream socket until the timeout and was logged as a 504
  // (seen in bench:blocks, where autocannon drops its connections at the end of each run).
  const unlessClientLeft = ((req, res, next) => (res.destroyed ? Promise.resolve() : proxy(req, res, next))) as ServiceProxy;
  unlessClientLeft.upgrade = proxy.upgrade;
  return unlessClientLeft;
}

/**
 * What Node's parser refuses before Express sees the request (headers past its limit, malformed
 * requests) gets a JSON body instead of Node's empty one. The path is not known yet, so the body
 * has the default style.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || (socket as Socket & { _httpMessage?: unknown })._httpMessage) return void socket.destroy();
  const [status, reason, body] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', { code: 'HEADERS_TOO_LARGE', message: 'Request headers are too large' }]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', { code: 'REQUEST_TIMEOUT', message: 'The request was not received in time' }]
        : [400, 'Bad Request', { code: 'BAD_REQUEST', message: 'Malformed HTTP request' }];
  const json = JSON.stringify({ ...body, requestId: randomUUID() });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`);
}
