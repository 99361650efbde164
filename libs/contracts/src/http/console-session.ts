import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ErrorBody, jsonContent } from './common.ts';
import { AuthUser, LoginBody } from './auth.ts';
import { Locale } from '../locale.ts';

/**
 * The console's cookie session, served by the gateway itself (not a service): the refresh token
 * lives only in an HttpOnly, SameSite=Strict cookie scoped to `CONSOLE_SESSION_PATH`, the access
 * token in the page's memory. Bearer clients keep using `/api/v2/auth/*`.
 */
export const CONSOLE_SESSION_PATH = '/api/console/session';
/** The HttpOnly cookie with the refresh token (`__Host-` prefixed is not possible: it is path-scoped). */
export const CONSOLE_REFRESH_COOKIE = 'academy_console_refresh';
/** The header a cookie-authenticated write carries: the `csrfToken` of the session's last answer. */
export const CONSOLE_CSRF_HEADER = 'x-csrf-token';

export const ConsoleSession = z
  .object({
    tokenType: z.literal('Bearer'),
    accessToken: z.string(),
    /** Seconds until the access token expires: refresh before then. */
    expiresIn: z.number().int().positive(),
    expiresAt: z.iso.datetime(),
    /** Send it as `X-CSRF-Token` on the session's refresh and logout; it changes with each rotation. */
    csrfToken: z.string(),
    user: AuthUser,
    /** The academy's language (a user whose `locale` is null reads it) and time zone (dates and times are shown in it). */
    academy: z.object({ locale: Locale, timeZone: z.string() }),
  })
  .meta({ id: 'ConsoleSession' });
export type ConsoleSession = z.infer<typeof ConsoleSession>;

const csrfHeader = z.object({ [CONSOLE_CSRF_HEADER]: z.string().max(128) });
const refused = {
  401: jsonContent(ErrorBody, 'UNAUTHORIZED: no session cookie, or its refresh token is unknown, spent, revoked or expired (the cookie is cleared)'),
  403: jsonContent(ErrorBody, 'CSRF_TOKEN_INVALID: the X-CSRF-Token header is missing or is not the session\'s current one'),
};

/** The console session's three routes, for the OpenAPI document (the gateway serves them). */
export function registerConsoleSession(registry: OpenAPIRegistry): void {
  const tags = ['console session'];
  registry.registerPath({
    method: 'post',
    path: CONSOLE_SESSION_PATH,
    tags,
    summary: 'Log in to the console: the refresh token is set as an HttpOnly cookie, never answered',
    description: 'Same credentials, limits and answers as `POST /api/v2/auth/login`.',
    request: { body: { required: true, content: { 'application/json': { schema: LoginBody } } } },
    responses: {
      200: jsonContent(ConsoleSession, 'A new session; `Set-Cookie` carries the refresh token'),
      400: jsonContent(ErrorBody, 'Malformed body'),
      401: jsonContent(ErrorBody, 'INVALID_CREDENTIALS'),
      429: jsonContent(ErrorBody, 'TOO_MANY_LOGIN_ATTEMPTS or RATE_LIMITED; see Retry-After'),
    },
  });
  registry.registerPath({
    method: 'post',
    path: `${CONSOLE_SESSION_PATH}/refresh`,
    tags,
    summary: 'Rotate the session cookie and get a new access token',
    description: 'Needs the cookie and its X-CSRF-Token. The cookie\'s token is spent: presenting it again (a stolen copy) ends the session. Not to be retried blindly after a lost answer.',
    request: { headers: csrfHeader },
    responses: { 200: jsonContent(ConsoleSession, 'The rotated session; `Set-Cookie` carries the new refresh token'), ...refused },
  });
  registry.registerPath({
    method: 'delete',
    path: CONSOLE_SESSION_PATH,
    tags,
    summary: 'Log out of the console: the session is revoked and the cookie cleared',
    description: 'Needs the cookie and its X-CSRF-Token. Without a cookie: 204 (nothing to end).',
    request: { headers: csrfHeader },
    responses: { 204: { description: 'Session ended, cookie cleared' }, 403: refused[403] },
  });
}
