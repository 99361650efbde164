import { createHmac, timingSafeEqual } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { parseCookie, stringifySetCookie } from 'cookie';
import { CONSOLE_CSRF_HEADER, CONSOLE_REFRESH_COOKIE, CONSOLE_SESSION_PATH, LoginBody, TokenPair, type ConsoleSession } from '@academy/contracts';
import { AppError, BadRequestError, UnauthorizedError, type Logger } from '@academy/kit';
import type { RateLimits } from './rate-limit.ts';

/** The readable cookie with the session's CSRF token: a reloaded page reads it to refresh (double submit). */
export const CONSOLE_CSRF_COOKIE = 'academy_console_csrf';

/**
 * The session's CSRF token: an HMAC keyed by its refresh token, so it needs no state, changes with
 * every rotation (a stale one is refused), and cannot be made without the HttpOnly cookie.
 */
export function csrfTokenOf(refreshToken: string): string {
  return createHmac('sha256', refreshToken).update('academy console csrf').digest('base64url');
}

function sameToken(sent: string, expected: string): boolean {
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface ConsoleSessionDeps {
  /** academic's base URL: the session routes call its login, refresh and logout. */
  academicUrl: string;
  timeoutMs: number;
  academy: ConsoleSession['academy'];
  limits: RateLimits;
  logger: Logger;
}

/**
 * `/api/console/session`: the browser's session at the gateway. The refresh token of academic's
 * login travels only in an HttpOnly, SameSite=Strict cookie scoped to this path (Secure when the
 * request came over TLS); the answer carries the access token (kept in the page's memory) and the
 * CSRF token that refresh and logout must send back as `X-CSRF-Token`. Each refresh rotates the
 * cookie (academic spends the old token: a stolen copy presented again ends the session); logout
 * revokes the session and clears both cookies.
 */
export function consoleSessionRouter(deps: ConsoleSessionDeps): Router {
  const router = Router();

  const academic = async (req: Request, path: string, body: unknown): Promise<globalThis.Response> => {
    try {
      return await fetch(`${deps.academicUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': req.ip ?? '', 'x-request-id': String(req.headers['x-request-id'] ?? '') },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(deps.timeoutMs),
      });
    } catch (error) {
      deps.logger.warn({ err: error }, 'console session: academic unreachable');
      throw new AppError(503, 'SERVICE_UNAVAILABLE', 'The service is unavailable; try again shortly');
    }
  };

  const setCookies = (req: Request, res: Response, pair: TokenPair | null) => {
    const secure = req.secure;
    const expires = pair ? new Date(pair.refreshExpiresAt) : new Date(0);
    res.append('set-cookie', stringifySetCookie({ name: CONSOLE_REFRESH_COOKIE, value: pair?.refreshToken ?? '', httpOnly: true, secure, sameSite: 'strict', path: CONSOLE_SESSION_PATH, expires }));
    res.append('set-cookie', stringifySetCookie({ name: CONSOLE_CSRF_COOKIE, value: pair ? csrfTokenOf(pair.refreshToken) : '', secure, sameSite: 'strict', path: '/', expires }));
  };

  const answerSession = (req: Request, res: Response, pair: TokenPair) => {
    setCookies(req, res, pair);
    const { tokenType, accessToken, expiresIn, expiresAt, user } = pair;
    const session: ConsoleSession = { tokenType, accessToken, expiresIn, expiresAt, user, csrfToken: csrfTokenOf(pair.refreshToken), academy: deps.academy };
    res.json(session);
  };

  /** academic's own refusal (status, JSON body, Retry-After) goes to the browser as it is. */
  const passOn = async (res: Response, answer: globalThis.Response) => {
    const retryAfter = answer.headers.get('retry-after');
    if (retryAfter) res.setHeader('retry-after', retryAfter);
    res.status(answer.status).type('application/json').send(await answer.text());
  };

  /** The session's refresh token, once its CSRF token is the header's; null without a cookie. */
  const cookieSession = (req: Request): string | null => {
    const refreshToken = parseCookie(req.headers.cookie ?? '')[CONSOLE_REFRESH_COOKIE];
    if (!refreshToken) return null;
    const sent = req.headers[CONSOLE_CSRF_HEADER];
    if (typeof sent !== 'string' || !sameToken(sent, csrfTokenOf(refreshToken))) throw new AppError(403, 'CSRF_TOKEN_INVALID', 'Missing or invalid CSRF token');
    return refreshToken;
  };

  router.use((req, res, next) => {
    res.setHeader('cache-control', 'no-store');
    deps.limits.check({ ip: req.ip ?? 'unknown' }).then(() => next(), next);
  });

  router.post('/', async (req, res) => {
    // A cross-site form can post only form encodings or text/plain: a JSON body is asked for.
    if (!req.is('application/json')) throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the credentials as application/json');
    const body = LoginBody.safeParse(req.body);
    if (!body.success) throw new BadRequestError('VALIDATION_ERROR', 'Invalid credentials body', body.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message })));
    const answer = await academic(req, '/api/v2/auth/login', body.data);
    if (answer.status !== 200) return passOn(res, answer);
    answerSession(req, res, TokenPair.parse(await answer.json()));
  });

  router.post('/refresh', async (req, res) => {
    const refreshToken = cookieSession(req);
    if (!refreshToken) throw new UnauthorizedError('No session', 'UNAUTHORIZED');
    const answer = await academic(req, '/api/v2/auth/refresh', { refreshToken });
    if (answer.status === 401) setCookies(req, res, null);
    if (answer.status !== 200) return passOn(res, answer);
    answerSession(req, res, TokenPair.parse(await answer.json()));
  });

  router.delete('/', async (req, res) => {
    const refreshToken = cookieSession(req);
    if (refreshToken) {
      const answer = await academic(req, '/api/v2/auth/logout', { refreshToken });
      if (answer.status !== 204) return passOn(res, answer);
    }
    setCookies(req, res, null);
    res.status(204).end();
  });

  return router;
}
