import { UnauthorizedError } from '@academy/kit';
import type { TokenPair } from '@academy/contracts';
import type { AcademicContext } from '../shared/academic-context.ts';
import { findUser, hashRefreshToken, issueTokens, lockRefreshToken, revokeFamily } from './auth.store.ts';

type Outcome = { ok: true; pair: TokenPair } | { ok: false; error: UnauthorizedError; endedSession?: string };

const invalid = () => new UnauthorizedError('Invalid or expired refresh token', 'INVALID_REFRESH_TOKEN');

/**
 * Spends a refresh token and returns its successor. The row is locked, so two refreshes with one
 * token serialize: the second sees it used. A used or revoked token presented again revokes the
 * whole family and ends its access tokens; that revocation commits even though the caller gets a 401.
 */
export async function refreshSession(ctx: AcademicContext, input: { refreshToken: string }): Promise<TokenPair> {
  const { tokens, sessions } = ctx;
  const outcome = await ctx.orm.em.transactional(async (tx): Promise<Outcome> => {
    const now = tokens.clock.now();
    const stored = await lockRefreshToken(tx, hashRefreshToken(input.refreshToken));
    if (!stored) return { ok: false, error: invalid() };
    if (stored.usedAt || stored.revokedAt) {
      await revokeFamily(tx, stored.familyId, now);
      return { ok: false, error: new UnauthorizedError('Refresh token was already used; the session is revoked', 'REFRESH_TOKEN_REUSED'), endedSession: stored.familyId };
    }
    if (stored.expiresAt <= now) return { ok: false, error: invalid() };
    const user = await findUser(tx, stored.user);
    if (!user || !user.active) {
      await revokeFamily(tx, stored.familyId, now);
      return { ok: false, error: invalid(), endedSession: stored.familyId };
    }
    stored.usedAt = now;
    return { ok: true, pair: issueTokens(tx, tokens, user, stored.familyId) };
  });
  if (!outcome.ok) {
    // The family's revocation has committed: its access tokens end too, for every verifier.
    if (outcome.endedSession) await sessions.endSessions([outcome.endedSession]);
    throw outcome.error;
  }
  return outcome.pair;
}
