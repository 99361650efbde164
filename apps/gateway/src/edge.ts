import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from 'cors';
import proxyaddr from 'proxy-addr';
import { bearerToken, type AccessClaims, type TokenVerifier } from '@academy/auth';
import { AppError, BadRequestError, UnauthorizedError, requestFront, type Logger, type Metrics } from '@academy/kit';
import { answerError, setErrorStyle } from './answer.ts';
import type { Config } from './config.ts';
import type { ServiceProxy } from './proxy.ts';
import type { RateLimits } from './rate-limit.ts';
import { hasDotSegment, matchRoute, type RouteRule, type ServiceName } from './route-table.ts';

/** The bearer token of a request: the Authorization header only (a token in a URL ends up in access logs and proxies). */
export function tokenOf(req: IncomingMessage): string | undefined {
  return bearerToken(req.headers.authorization);
}

/**
 * Drops a `token` query parameter from a Socket.IO request before it goes on: it is never read
 * (the service takes the token from the handshake's `auth` only, and refuses a connection without
 * one), and should not travel further, nor reach the service's logs.
 */
export function dropQueryToken(req: IncomingMessage): void {
  const at = req.url?.indexOf('?') ?? -1;
  if (at < 0) return;
  const params = new URLSearchParams(req.url!.slice(at + 1));
  if (!params.has('token')) return;
  params.delete('token');
  const rest = params.toString();
  req.url = rest ? `${req.url!.slice(0, at)}?${rest}` : req.url!.slice(0, at);
}

/** The size of the request's header block as received (names, values, `: ` and CRLF). */
export function headerBytes(req: IncomingMessage): number {
  let bytes = 0;
  for (const part of req.rawHeaders) bytes += part.length + 2;
  return bytes;
}

export interface EdgeDeps {
  config: Config;
  verifier: TokenVerifier;
  limits: RateLimits;
  proxies: Record<ServiceName, ServiceProxy>;
  /** Notifications with the long-polling timeout, for `/socket.io`. */
  realtimeProxy: ServiceProxy;
  logger: Logger;
  metrics: Metrics;
}

/**
 * The requests of the route table, on plain Node objects (Express, which cost the gateway as much
 * CPU per request as the proxying itself, serves only the gateway's own routes): the common front
 * (request id, access log, metrics labelled by route family), CORS, then refuse what the service
 * would refuse anyway (bad path, body too large, missing or bad token, over a rate limit) with the
 * service's own error body, then proxy. Returns false for a path outside the table, which the
 * caller hands to the gateway's Express app (docs, probes, its 404).
 */
export function edgeHandler({ config, verifier, limits, proxies, realtimeProxy, logger, metrics }: EdgeDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  const front = requestFront(logger, metrics, (req) => (req as IncomingMessage & { rule?: RouteRule }).rule?.prefix ?? 'unmatched');
  // Request headers are allowed as the preflight asks (Authorization, Idempotency-Key…); a browser client reads
  // whether a write was replayed (`Idempotent-Replayed`) and when to retry one still running (`Retry-After`).
  const corsHandler = cors({ origin: config.CORS_ORIGINS, credentials: true, exposedHeaders: ['x-request-id', 'retry-after', 'idempotent-replayed'], maxAge: 600 });
  const trusted = proxyaddr.compile(config.TRUST_PROXY.split(',').map((entry) => entry.trim()));

  const handle = async (req: IncomingMessage, res: ServerResponse, rule: RouteRule, path: string) => {
    try {
      if (hasDotSegment(path)) throw new BadRequestError('INVALID_PATH', 'Paths with "." or ".." segments are not accepted');
      if (Number(req.headers['content-length'] ?? 0) > Math.max(config.BODY_LIMIT_BYTES, rule.maxBodyBytes ?? 0)) throw new AppError(413, 'PAYLOAD_TOO_LARGE', 'Request body is too large');
      // A streamed body of unknown length could only be cut off half-way through the proxy: ask for its length up front.
      if (req.headers['transfer-encoding'] && req.headers['content-length'] === undefined)
        throw new AppError(411, 'LENGTH_REQUIRED', 'Send the request body with a Content-Length header');
      if (headerBytes(req) > config.MAX_HEADER_BYTES) throw new AppError(431, 'HEADERS_TOO_LARGE', 'Request headers are too large');
      // Node joins a repeated header with ", ", and the proxy would pass two keys on as one ("aaa, bbb"): refused here, as the service does.
      if ((req.headersDistinct['idempotency-key']?.length ?? 0) > 1) throw new BadRequestError('INVALID_IDEMPOTENCY_KEY', 'Send one Idempotency-Key header, not several');
      let claims: AccessClaims | null = null;
      if (rule.access === 'bearer') {
        const token = tokenOf(req);
        // Signature and claims, then whether the session was ended (logout, reuse, deactivation).
        claims = token ? await verifier.authenticate(token) : null;
      }
      const ip = proxyaddr(req, trusted);
      // A signed-in user counts against their own limit, anyone else against their address's.
      await limits.check(claims ? { userId: claims.sub } : { ip });
      // Answers to credentials are kept by no cache; an upstream's own Cache-Control replaces this one.
      if (rule.access !== 'public') res.setHeader('cache-control', 'no-store');
      if (rule.access === 'bearer' && !claims) throw new UnauthorizedError(rule.unauthorizedMessage);
      // The services trust the gateway's view of the client address, not one a client sent.
      req.headers['x-forwarded-for'] = ip;
      if (rule.longPolling) dropQueryToken(req);
      await (rule.longPolling ? realtimeProxy : proxies[rule.service])(req, res, (error?: unknown) => answerError(req, res, error ?? new AppError(502, 'BAD_GATEWAY', 'No answer'), logger));
    } catch (error) {
      answerError(req, res, error, logger);
    }
  };

  return (req, res) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query >= 0 ? url.slice(0, query) : url;
    const rule = matchRoute(path);
    if (!rule) return false;
    (req as IncomingMessage & { rule?: RouteRule }).rule = rule;
    setErrorStyle(req, rule.errorStyle);
    front(req, res);
    corsHandler(req, res, () => void handle(req, res, rule, path));
    return true;
  };
}
