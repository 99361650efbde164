import { Router } from 'express';
import { currentUser, requireAuth } from '@academy/auth';
import { LoginBody, LogoutBody, RefreshBody, UpdateMeBody } from '@academy/contracts';
import { noQuery } from '@academy/kit';
import type { AcademicContext } from '../shared/academic-context.ts';
import { login } from './login.ts';
import { logout } from './logout.ts';
import { me, updateMe } from './me.ts';
import { refreshSession } from './refresh.ts';
import type { LoginProtection } from './login-protection.ts';
import { createSessionTokens } from './session-tokens.ts';

/** `/api/v2/auth/*`: login, refresh, logout, me (read and change). `protection` is the instance's login limiter (its Redis client closed by the service's stop). */
export function authRouter(ctx: AcademicContext, protection: LoginProtection): Router {
  const tokens = createSessionTokens(ctx.config, ctx.clock);
  const { sessions } = ctx;
  const em = () => ctx.orm.em;
  const router = Router();
  // No auth route takes a query (and credentials never travel in one); answers carrying tokens are kept by no cache (RFC 6749 5.1).
  router.use(noQuery, (_req, res, next) => {
    res.setHeader('cache-control', 'no-store');
    next();
  });

  router.post('/login', async (req, res) => {
    const input = LoginBody.parse(req.body);
    // req.ip: the client address the gateway passed on (only loopback proxies are trusted).
    res.json(await login(em(), tokens, input, { ip: req.ip ?? req.socket.remoteAddress ?? 'unknown', protection }));
  });
  router.post('/refresh', async (req, res) => {
    const { refreshToken } = RefreshBody.parse(req.body);
    res.json(await refreshSession(em(), tokens, sessions, refreshToken));
  });
  router.post('/logout', async (req, res) => {
    const { refreshToken } = LogoutBody.parse(req.body);
    await logout(em(), sessions, refreshToken);
    res.status(204).end();
  });
  router.get('/me', requireAuth(ctx.verifier), async (_req, res) => {
    res.json(await me(em(), currentUser(res).userId));
  });
  router.patch('/me', requireAuth(ctx.verifier), async (req, res) => {
    const changes = UpdateMeBody.parse(req.body);
    res.json(await updateMe(em(), currentUser(res).userId, changes));
  });
  return router;
}
