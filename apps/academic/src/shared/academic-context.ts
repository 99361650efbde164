import type { ServiceContext } from '@academy/service';
import type { Config } from '../config.ts';
import { createSessionEnder, type SessionEnder } from './sessions.ts';

/** What academic's features work with: the service's context and what `setup` builds once per instance. */
export interface AcademicContext extends ServiceContext<Config> {
  /** Ends sessions (logout, a reused refresh token, a deactivated user) for every verifier. */
  sessions: SessionEnder;
}

export function createAcademicContext(ctx: ServiceContext<Config>): AcademicContext {
  return { ...ctx, sessions: createSessionEnder(ctx.redis, ctx.config, ctx.logger, ctx.clock) };
}
