import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager, InferEntity } from '@mikro-orm/postgresql';
import { createTokenSigner, loadKeyRing, type TokenSigner } from '@academy/auth';
import type { AuthUser, TokenPair } from '@academy/contracts';
import type { Clock } from '@academy/kit';
import type { Config } from '../config.ts';
import type { User } from './entities/user.entity.ts';
import { RefreshToken } from './entities/refresh-token.entity.ts';

export interface SessionTokens {
  signer: TokenSigner;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
  /** "Now" for the tokens' expiries (the service's clock). */
  clock: Clock;
}

/** Loads the signing key (the first of JWT_KEY_IDS) once, at start; an access TTL every verifier would refuse stops the start. */
export function createSessionTokens(config: Config, clock: Clock): SessionTokens {
  const maxTtl = config.JWT_MAX_TTL_SECONDS ?? 15 * 60;
  if (config.ACCESS_TOKEN_TTL_SECONDS > maxTtl) throw new Error(`ACCESS_TOKEN_TTL_SECONDS (${config.ACCESS_TOKEN_TTL_SECONDS}) is over JWT_MAX_TTL_SECONDS (${maxTtl}): every verifier would refuse the tokens`);
  const ring = loadKeyRing(config.JWT_KEYS_DIR, config.JWT_KEY_IDS, config.JWT_KEY_IDS[0]);
  return {
    signer: createTokenSigner(ring, { issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE }),
    accessTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
    refreshTtlSeconds: config.REFRESH_TOKEN_TTL_SECONDS,
    clock,
  };
}

/** Refresh tokens are random; only their hash is stored, so a database leak yields no usable token. */
export const hashRefreshToken = (token: string) => createHash('sha256').update(token).digest('hex');

export type UserRow = InferEntity<typeof User>;

export function toAuthUser(user: Pick<UserRow, 'id' | 'email' | 'role' | 'employeeId' | 'studentId' | 'locale'>): AuthUser {
  return { id: user.id, email: user.email, role: user.role, employeeId: user.employeeId ?? null, studentId: user.studentId ?? null, locale: user.locale ?? null };
}

/**
 * Signs an access token and adds a new refresh token of `familyId` to `em`'s unit of work (the
 * caller flushes). A new login starts a family; a refresh continues it.
 */
export function issueTokens(em: EntityManager, tokens: SessionTokens, user: UserRow, familyId: string = randomUUID()): TokenPair {
  const now = tokens.clock.now().getTime();
  const refreshToken = randomBytes(32).toString('base64url');
  const refreshExpiresAt = new Date(now + tokens.refreshTtlSeconds * 1000);
  em.create(RefreshToken, { tokenHash: hashRefreshToken(refreshToken), familyId, user: user.id, expiresAt: refreshExpiresAt, createdAt: new Date(now) });
  const accessToken = tokens.signer.sign(
    // The session id is the refresh-token family: logout and a reuse end the access tokens of that family.
    { sub: String(user.id), role: user.role, employeeId: user.employeeId ?? undefined, studentId: user.studentId ?? undefined, sid: familyId },
    tokens.accessTtlSeconds,
  );
  return {
    tokenType: 'Bearer',
    accessToken,
    expiresIn: tokens.accessTtlSeconds,
    expiresAt: new Date(now + tokens.accessTtlSeconds * 1000).toISOString(),
    refreshToken,
    refreshExpiresAt: refreshExpiresAt.toISOString(),
    user: toAuthUser(user),
  };
}
