// The data of auth: logins (users) and refresh tokens, through their entities.
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { RefreshToken } from '../shared/entities/refresh-token.entity.ts';
import { User } from '../shared/entities/user.entity.ts';

export const findUserByEmail = (em: EntityManager, email: string) => em.findOne(User, { email });

export const findUser = (em: EntityManager, userId: number) => em.findOne(User, { id: userId });

export const findRefreshToken = (em: EntityManager, tokenHash: string) => em.findOne(RefreshToken, { tokenHash });

/** The refresh token, its row locked for the transaction: two refreshes with one token serialize. */
export const lockRefreshToken = (tx: EntityManager, tokenHash: string) => tx.findOne(RefreshToken, { tokenHash }, { lockMode: LockMode.PESSIMISTIC_WRITE });

/** Revokes every token of the session (family) not revoked yet. */
export async function revokeFamily(em: EntityManager, familyId: string, at: Date): Promise<void> {
  await em.nativeUpdate(RefreshToken, { familyId, revokedAt: null }, { revokedAt: at });
}
