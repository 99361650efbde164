import type { EntityManager } from '@mikro-orm/postgresql';
import { RefreshToken } from '../shared/entities/refresh-token.entity.ts';
import { hashRefreshToken } from './session-tokens.ts';
import type { SessionEnder } from '../shared/sessions.ts';

/**
 * Revokes the session of a refresh token (the token and any successor) and ends its access tokens.
 * Unknown tokens are ignored.
 */
export async function logout(em: EntityManager, sessions: SessionEnder, refreshToken: string): Promise<void> {
  const stored = await em.findOne(RefreshToken, { tokenHash: hashRefreshToken(refreshToken) });
  if (!stored) return;
  await em.nativeUpdate(RefreshToken, { familyId: stored.familyId, revokedAt: null }, { revokedAt: new Date() });
  await sessions.endSessions([stored.familyId]);
}
