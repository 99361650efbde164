import type { EntityManager } from '@mikro-orm/postgresql';
import type { Redis } from 'ioredis';
import { CLOCK_SKEW_SECONDS, createSessionRevocations, revocationTtlSeconds } from '@academy/auth';
import type { Clock, Logger } from '@academy/kit';
import type { Config } from '../config.ts';
import { RefreshToken } from './entities/refresh-token.entity.ts';
import { lockFamiliesOfUser } from './session-locks.store.ts';

/**
 * Ends sessions for every verifier (gateway and services read the revocations from Redis through
 * `@academy/auth`; the session id of an access token is its refresh-token family): the session of a
 * logout, a family revoked for reuse, and every session of a deactivated user or of one whose token
 * claims changed. The refresh tokens are revoked in the database regardless; if Redis cannot be
 * written the access tokens live on until their expiry (at most the access TTL) and this is logged.
 */
export interface SessionEnder {
  endSessions(sessionIds: string[]): Promise<void>;
  /** Revokes every refresh-token family of the user (they log in again) and ends the sessions whose access tokens may still be valid. */
  endUserSessions(em: EntityManager, userId: number): Promise<void>;
}

export function createSessionEnder(redis: Redis, config: Config, logger: Logger, clock: Clock): SessionEnder {
  const ttlSeconds = revocationTtlSeconds(config);
  const revocations = createSessionRevocations(redis, { ttlSeconds });
  const endSessions = async (sessionIds: string[]) => {
    try {
      await revocations.revokeSessions(sessionIds);
    } catch (error) {
      logger.error({ err: error, sessions: sessionIds.length }, 'could not record ended sessions in redis: their access tokens stay valid until they expire');
    }
  };
  return {
    endSessions,
    async endUserSessions(em, userId) {
      const now = clock.now();
      const recent = await em.transactional(async (tx) => {
        // A refresh committing now would leave its new token out of the revocation (READ COMMITTED): the
        // sessions' locks are taken first, as a refresh takes its own, so it commits before and its
        // successor is revoked with the rest (and a refresh of a spent token, which locks that token
        // and then revokes its session's, cannot hold a row this revocation waits for).
        await lockFamiliesOfUser(tx, userId);
        await tx.nativeUpdate(RefreshToken, { user: userId, revokedAt: null }, { revokedAt: now });
        // Each access token was issued with a refresh token of its family: families with a token this recent may have live access tokens.
        const since = new Date(now.getTime() - (config.ACCESS_TOKEN_TTL_SECONDS + CLOCK_SKEW_SECONDS) * 1000);
        return tx.find(RefreshToken, { user: userId, createdAt: { $gte: since } }, { fields: ['familyId'] });
      });
      await endSessions([...new Set(recent.map((token) => token.familyId))]);
    },
  };
}
