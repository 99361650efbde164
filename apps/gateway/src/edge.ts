import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { bearerToken, type AccessClaims, type TokenVerifier } from '@academy/auth';
import { AppError, BadRequestError, UnauthorizedError } from '@academy/kit';
import type { RequestHandler as ProxyHandler } from 'http-proxy-middleware';
import type { Config } from './config.ts';
import type { RateLimits } from './rate-limit.ts';
import { hasDotSegment, matchRoute, type RouteRule, type ServiceName } from './route-table.ts';

/** The bearer token of a request: the Authorization header, or `?token=` where the rule allows it. */
export function tokenOf(req: IncomingMessage, rule: RouteRule): string | undefined {
  const fromHeader = bearerToken(req.headers.authorization);
  if (fromHeader || !rule.queryToken) return fromHeader;
  const query = req.url?.indexOf('?') ?? -1;
  return query >= 0 ? (new URLSearchParams(req.url!.slice(query + 1)).get('token') ?? undefined) : undefined;
}

/**
 * Moves a `?token=` into the Authorization header and out of the URL, so the token never lands in
 * access logs and the service reads it where it reads every other token.
 */
export function moveQueryTokenToHeader(req: IncomingMessage & { originalUrl?: string }, token: string | undefined): void {
  if (!token || bearerToken(req.headers.authorization) || !req.url?.includes('token=')) return;
  const [path, query = ''] = req.url.split('?', 2);
  const params = new URLSearchParams(query);
  params.delete('token');
  const rest = params.toString();
  req.url = rest ? `${path}?${rest}` : path;
  if (req.originalUrl !== undefined) req.originalUrl = req.url;
  req.headers.authorization = `Bearer ${token}`;
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
  proxies: Record<ServiceName, ProxyHandler<Request, Response>>;
  /** Notifications with the long-polling timeout, for `/socket.io`. */
  realtimeProxy: ProxyHandler<Request, Response>;
}

/**
 * For every path of the route table: refuse what the service would refuse anyway (bad path, body
 * too large, missing or bad token, over a rate limit) with the service's own error body, then
 * proxy. Paths not in the table fall through to the gateway's own routes and its 404.
 */
export function edgeHandler({ config, verifier, limits, proxies, realtimeProxy }: EdgeDeps): RequestHandler {
  return async (req, res, next) => {
    const rule = matchRoute(req.path);
    if (!rule) return next();
    res.locals.errorStyle = rule.errorStyle;
    try {
      if (hasDotSegment(req.path)) throw new BadRequestError('INVALID_PATH', 'Paths with "." or ".." segments are not accepted');
      if (Number(req.headers['content-length'] ?? 0) > Math.max(config.BODY_LIMIT_BYTES, rule.maxBodyBytes ?? 0)) throw new AppError(413, 'PAYLOAD_TOO_LARGE', 'Request body is too large');
      // A streamed body of unknown length could only be cut off half-way through the proxy: ask for its length up front.
      if (req.headers['transfer-encoding'] && req.headers['content-length'] === undefined)
        throw new AppError(411, 'LENGTH_REQUIRED', 'Send the request body with a Content-Length header');
      if (headerBytes(req) > config.MAX_HEADER_BYTES) throw new AppError(431, 'HEADERS_TOO_LARGE', 'Request headers are too large');
      let claims: AccessClaims | null = null;
      if (rule.access === 'bearer') {
        const token = tokenOf(req, rule);
        // Signature and claims, then whether the session was ended (logout, reuse, deactivation).
        claims = token ? await verifier.authenticate(token) : null;
        if (rule.queryToken) moveQueryTokenToHeader(req, token);
      }
      const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
      // Logins count against the per-IP limit only: failed logins are limited by academic, which knows the e-mail.
      await limits.check({ ip, userId: claims?.sub });
      if (rule.access === 'bearer' && !claims) throw new UnauthorizedError(rule.unauthorizedMessage);
      // The services trust the gateway's view of the client address, not one a client sent.
      req.headers['x-forwarded-for'] = ip;
      await (rule.longPolling ? realtimeProxy : proxies[rule.service])(req, res, next);
    } catch (error) {
      next(error);
    }
  };
}
