import type { AcademicContext } from '../shared/academic-context.ts';
import { findRefreshToken, hashRefreshToken, revokeFamily } from './auth.store.ts';

/**
 * Revokes the session of a refresh token (the token and any successor) and ends its access tokens.
 * Unknown tokens are ignored.
 */
export async function logout(ctx: AcademicContext, input: { refreshToken: string }): Promise<void> {
  const em = ctx.orm.em;
  const stored = await findRefreshToken(em, hashRefreshToken(input.refreshToken));
  if (!stored) return;
  await revokeFamily(em, stored.familyId, new Date());
  await ctx.sessions.endSessions([stored.familyId]);
}
