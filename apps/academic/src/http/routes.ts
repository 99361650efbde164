import type { Express } from 'express';
import type { ServiceContext } from '@academy/service';
import type { Config } from '../config.ts';
import { authRouter } from '../auth/auth.routes.ts';

export function registerRoutes(app: Express, ctx: ServiceContext<Config>): void {
  app.use('/api/v2/auth', authRouter(ctx));
}
