import type { FileStorage } from '@academy/files';
import { privacyStorage } from '@academy/privacy';
import { implementFor, type ServiceContext } from '@academy/service';
import type { Config } from '../config.ts';
import { AttendanceReportCache } from './attendance-report-cache.ts';
import { ListingCache } from './listing-cache.ts';
import { createLoginProtection, type LoginProtection } from './login-protection.ts';
import { createSessionTokens, type SessionTokens } from './session-tokens.ts';
import { createSessionEnder, type SessionEnder } from './sessions.ts';

/** What academic's features work with: the service's context and what `setup` builds once per instance. */
export interface AcademicContext extends ServiceContext<Config> {
  /** Ends sessions (logout, a reused refresh token, a deactivated user) for every verifier. */
  sessions: SessionEnder;
  /** Signs the tokens of a login or a refresh (the key loaded once, at start). */
  tokens: SessionTokens;
  /** The instance's login limiter (its Redis client closed by the service's stop). */
  loginProtection: LoginProtection;
  /** Admins' attendance reports in Redis, under the versions of what they show. */
  attendanceReports: AttendanceReportCache;
  /** Administrative listing answers in this process's memory, under the listing's version. */
  listings: ListingCache;
  /** Pages of the pending review queue in this process's memory, under the queue's version (`blocks/list-pending-blocks.ts`). */
  pendingPages: ListingCache;
  /** Academic's parts of personal data exports, encrypted at rest (`PRIVACY_FILES_DIR`, `PRIVACY_FILE_KEYS`). */
  privacyStorage: FileStorage;
}

export function createAcademicContext(ctx: ServiceContext<Config>): AcademicContext {
  return {
    ...ctx,
    sessions: createSessionEnder(ctx.redis, ctx.config, ctx.logger, ctx.clock),
    tokens: createSessionTokens(ctx.config, ctx.clock),
    loginProtection: createLoginProtection(ctx.config, ctx.logger),
    attendanceReports: new AttendanceReportCache(ctx.redis, { logger: ctx.logger }),
    listings: new ListingCache(),
    pendingPages: new ListingCache({ maxBytes: 16 * 1024 * 1024 }),
    privacyStorage: privacyStorage(ctx.config),
  };
}

/** Implements a contract with handlers that take this service's context (each feature's `<feature>.routes.ts`). */
export const implement = implementFor<AcademicContext>();
