// The data of auth: logins (users) and sessions (their refresh tokens), through their entities.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { LockMode, type EntityManager, type InferEntity } from '@mikro-orm/postgresql';
import type { AuthUser, TokenPair } from '@academy/contracts';
import type { SessionTokens } from '../shared/session-tokens.ts';
import { RefreshToken } from '../shared/entities/refresh-token.entity.ts';
import { User } from '../shared/entities/user.entity.ts';
import { lockFamilyOfToken } from '../shared/session-locks.store.ts';

export function findUserByEmail(em: EntityManager, email: string) {
  return em.findOne(User, { email });
}

export function findUser(em: EntityManager, userId: number) {
  return em.findOne(User, { id: userId });
}

export function findRefreshToken(em: EntityManager, tokenHash: string) {
  return em.findOne(RefreshToken, { tokenHash });
}

/** The refresh token, its row locked for the transaction after its session's lock (`shared/session-locks.store.ts`): two refreshes with one token serialize. */
export async function lockRefreshToken(tx: EntityManager, tokenHash: string) {
  await lockFamilyOfToken(tx, tokenHash);
  return tx.findOne(RefreshToken, { tokenHash }, { lockMode: LockMode.PESSIMISTIC_WRITE });
}

// A logout takes its session's lock before revoking: a refresh of it holds that lock until its successor commits.
export { lockFamily } from '../shared/session-locks.store.ts';

/** Revokes every token of the session (family) not revoked yet. */
export async function revokeFamily(em: EntityManager, familyId: string, at: Date): Promise<void> {
  await em.nativeUpdate(RefreshToken, { familyId, revokedAt: null }, { revokedAt: at });
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
