import type { AcademicContext } from '../shared/academic-context.ts';
import { findRefreshToken, hashRefreshToken, lockFamily, revokeFamily } from './auth.store.ts';

/**
 * Revokes the session of a refresh token (the token and any successor) and ends its access tokens.
 * Unknown tokens are ignored.
 */
export async function logout(ctx: AcademicContext, input: { refreshToken: string }): Promise<void> {
  const em = ctx.orm.em;
  const stored = await findRefreshToken(em, hashRefreshToken(input.refreshToken));
  if (!stored) return;
  // A refresh of the session committing now would leave its new token out of a plain revocation
  // (READ COMMITTED): wait for it (the session's lock, which every refresh takes first), then revoke
  // what the family holds then.
  await em.transactional(async (tx) => {
    await lockFamily(tx, stored.familyId);
    await revokeFamily(tx, stored.familyId, new Date());
  });
  await ctx.sessions.endSessions([stored.familyId]);
}
