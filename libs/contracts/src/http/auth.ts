import { z } from 'zod';
import { ErrorBody, jsonContent } from './common.ts';
import { routeFamily } from '../routes.ts';
import { Locale } from '../locale.ts';

/** `is required` only when the field is missing; a wrong type or length says so (a schema-level `error` would answer every issue with it). */
const requiredString = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .min(1, { error: 'is required' })
    .max(max, { error: `must be at most ${max} characters` });

export const LoginBody = z.strictObject({
  email: z.email({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be an e-mail address') }).max(254, { error: 'must be at most 254 characters' }),
  password: requiredString(1024),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const RefreshBody = z.strictObject({ refreshToken: requiredString(512) });
export type RefreshBody = z.infer<typeof RefreshBody>;

export const LogoutBody = RefreshBody;
export type LogoutBody = RefreshBody;

export const AuthUser = z.object({
  id: z.number().int().positive(),
  email: z.string(),
  role: z.enum(['admin', 'user']),
  employeeId: z.number().int().positive().nullable(),
  studentId: z.number().int().positive().nullable(),
  /** The language of their notifications; null: the academy's. */
  locale: Locale.nullable(),
});
export type AuthUser = z.infer<typeof AuthUser>;

/** Answer of login and refresh: a short-lived access JWT and a rotating refresh token. */
export const TokenPair = z.object({
  tokenType: z.literal('Bearer'),
  accessToken: z.string(),
  /** Seconds until the access token expires. */
  expiresIn: z.number().int().positive(),
  expiresAt: z.iso.datetime(),
  refreshToken: z.string(),
  refreshExpiresAt: z.iso.datetime(),
  user: AuthUser,
});
export type TokenPair = z.infer<typeof TokenPair>;

export const MeResponse = z.object({ user: AuthUser });
export type MeResponse = z.infer<typeof MeResponse>;

/** What a user changes of their own login: the language of their notifications (`null`: back to the academy's). */
export const UpdateMeBody = z.strictObject({ locale: Locale.nullable() });
export type UpdateMeBody = z.infer<typeof UpdateMeBody>;

/** `/api/v2/auth`: login, refresh and logout are public (login counted against the stricter limit); `me` needs a token. */
export const authApi = routeFamily({ prefix: '/api/v2/auth', service: 'academic', access: 'bearer', errorStyle: 'default', unauthorizedMessage: 'Unauthorized', tags: ['auth'] });

export const loginRoute = authApi.route({
  method: 'post',
  path: '/api/v2/auth/login',
  access: 'public',
  login: true,
  summary: 'Log in with e-mail and password',
  description: 'A wrong password and an unknown e-mail get the same answer in the same time. Failed logins are limited per (e-mail, IP): 5 in a row block the pair for 15 minutes (a success clears them); and per IP: 100 a day block the IP for a day. Successful logins count only against the general per-IP limit.',
  request: { body: LoginBody },
  responses: {
    200: jsonContent(TokenPair, 'Tokens of a new session'),
    400: jsonContent(ErrorBody, 'Malformed body'),
    401: jsonContent(ErrorBody, 'INVALID_CREDENTIALS: wrong e-mail or password'),
    429: jsonContent(ErrorBody, 'TOO_MANY_LOGIN_ATTEMPTS (failed logins) or RATE_LIMITED (the general limit); see Retry-After'),
  },
});

export const refreshRoute = authApi.route({
  method: 'post',
  path: '/api/v2/auth/refresh',
  access: 'public',
  summary: 'Rotate a refresh token',
  description: 'The presented token becomes used; a used or revoked token presented again revokes its whole session.',
  request: { body: RefreshBody },
  responses: {
    200: jsonContent(TokenPair, 'New tokens; the old refresh token is spent'),
    400: jsonContent(ErrorBody, 'Malformed body'),
    401: jsonContent(ErrorBody, 'INVALID_REFRESH_TOKEN, REFRESH_TOKEN_REUSED'),
  },
});

export const logoutRoute = authApi.route({
  method: 'post',
  path: '/api/v2/auth/logout',
  access: 'public',
  summary: 'End the session of a refresh token',
  description: 'Revokes the token and its session. Idempotent: an unknown or already revoked token also answers 204.',
  request: { body: LogoutBody },
  responses: { 204: { description: 'Session ended' }, 400: jsonContent(ErrorBody, 'Malformed body') },
});

export const meRoute = authApi.route({
  method: 'get',
  path: '/api/v2/auth/me',
  summary: 'The authenticated user',
  responses: { 200: jsonContent(MeResponse, 'The user of the access token'), 401: jsonContent(ErrorBody, 'UNAUTHORIZED') },
});

export const updateMeRoute = authApi.route({
  method: 'patch',
  path: '/api/v2/auth/me',
  summary: 'Change your own settings: the language of your notifications',
  description: 'Each mail and push to you is written in `locale` (`es` or `en`); `null` goes back to the academy\'s language. Carried on the events that name you from then on.',
  request: { body: UpdateMeBody },
  responses: { 200: jsonContent(MeResponse, 'The user, changed'), 400: jsonContent(ErrorBody, 'VALIDATION_ERROR naming the field'), 401: jsonContent(ErrorBody, 'UNAUTHORIZED') },
});
