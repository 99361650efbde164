import type { Express } from 'express';
import { currentUser } from '@academy/auth';
import { loginRoute, logoutRoute, meRoute, refreshRoute, updateMeRoute } from '@academy/contracts';
import { noQuery } from '@academy/kit';
import { routeBinder } from '@academy/service';
import type { AcademicContext } from '../shared/academic-context.ts';
import { login } from './login.ts';
import { logout } from './logout.ts';
import { me, updateMe } from './me.ts';
import { refreshSession } from './refresh.ts';
import type { LoginProtection } from './login-protection.ts';
import { createSessionTokens } from './session-tokens.ts';

/** `/api/v2/auth/*`: login, refresh, logout, me (read and change). `protection` is the instance's login limiter (its Redis client closed by the service's stop). */
export function registerAuthRoutes(app: Express, ctx: AcademicContext, protection: LoginProtection): void {
  const bind = routeBinder(app, ctx);
  const tokens = createSessionTokens(ctx.config, ctx.clock);
  const { sessions } = ctx;
  const em = () => ctx.orm.em;
  // No auth route takes a query (and credentials never travel in one), refused before anything else; answers carrying tokens are kept by no cache (RFC 6749 5.1).
  app.use('/api/v2/auth', noQuery, (_req, res, next) => {
    res.setHeader('cache-control', 'no-store');
    next();
  });

  bind(loginRoute, async ({ body, req, res }) => {
    // req.ip: the client address the gateway passed on (only loopback proxies are trusted).
    res.json(await login(em(), tokens, body, { ip: req.ip ?? req.socket.remoteAddress ?? 'unknown', protection }));
  });
  bind(refreshRoute, async ({ body, res }) => {
    res.json(await refreshSession(em(), tokens, sessions, body.refreshToken));
  });
  bind(logoutRoute, async ({ body, res }) => {
    await logout(em(), sessions, body.refreshToken);
    res.status(204).end();
  });
  bind(meRoute, async ({ res }) => {
    res.json(await me(em(), currentUser(res).userId));
  });
  bind(updateMeRoute, async ({ body, res }) => {
    res.json(await updateMe(em(), currentUser(res).userId, body));
  });
}
