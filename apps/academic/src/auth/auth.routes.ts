import { Router } from 'express';
import { currentUser, requireAuth } from '@academy/auth';
import { LoginBody, LogoutBody, RefreshBody } from '@academy/contracts';
import type { ServiceContext } from '@academy/service';
import type { Config } from '../config.ts';
import { login } from './login.ts';
import { logout } from './logout.ts';
import { me } from './me.ts';
import { refreshSession } from './refresh.ts';
import { createSessionTokens } from './session-tokens.ts';

/** `/api/v2/auth/*`: login, refresh, logout, me. */
export function authRouter(ctx: ServiceContext<Config>): Router {
  const tokens = createSessionTokens(ctx.config);
  const em = () => ctx.orm.em;
  const router = Router();

  router.post('/login', async (req, res) => {
    const input = LoginBody.parse(req.body);
    res.json(await login(em(), tokens, input));
  });
  router.post('/refresh', async (req, res) => {
    const { refreshToken } = RefreshBody.parse(req.body);
    res.json(await refreshSession(em(), tokens, refreshToken));
  });
  router.post('/logout', async (req, res) => {
    const { refreshToken } = LogoutBody.parse(req.body);
    await logout(em(), refreshToken);
    res.status(204).end();
  });
  router.get('/me', requireAuth(ctx.verifier), async (_req, res) => {
    res.json(await me(em(), currentUser(res).userId));
  });
  return router;
}
