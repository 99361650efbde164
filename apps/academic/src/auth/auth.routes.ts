import type { RequestHandler } from 'express';
import { contract, loginRoute, logoutRoute, meRoute, refreshRoute, updateMeRoute } from '@academy/contracts';
import { noQuery } from '@academy/kit';
import { implement } from '../shared/academic-context.ts';
import { login } from './login.ts';
import { logout } from './logout.ts';
import { readMe } from './read-me.ts';
import { refreshSession } from './refresh.ts';
import { updateMe } from './update-me.ts';

/**
 * Before every `/api/v2/auth` path (the routes.ts `use`s them): no auth route takes a query (and
 * credentials never travel in one), refused before anything else; answers carrying tokens are kept
 * by no cache (RFC 6749 5.1).
 */
export const authPreamble: RequestHandler[] = [
  noQuery,
  (_req, res, next) => {
    res.setHeader('cache-control', 'no-store');
    next();
  },
];

/** The auth routes by name (`/api/v2/auth/*`). */
export const authContract = contract({ login: loginRoute, refresh: refreshRoute, logout: logoutRoute, me: meRoute, updateMe: updateMeRoute });

/** Login, refresh, logout, me (read and change). */
export const authRoutes = implement(authContract, {
  // req.ip: the client address the gateway passed on (only the proxies of TRUST_PROXY are trusted).
  login: async ({ body, req }, ctx) => ({ status: 200, body: await login(ctx, { ...body, ip: req.ip ?? req.socket.remoteAddress ?? 'unknown' }) }),
  refresh: async ({ body }, ctx) => ({ status: 200, body: await refreshSession(ctx, body) }),
  logout: async ({ body }, ctx) => {
    await logout(ctx, body);
    return { status: 204 };
  },
  me: async (_input, ctx, actor) => ({ status: 200, body: await readMe(ctx, {}, actor) }),
  updateMe: async ({ body }, ctx, actor) => ({ status: 200, body: await updateMe(ctx, body, actor) }),
});
