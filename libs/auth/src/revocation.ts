import type { Redis } from 'ioredis';

/** What a revocation check needs of a verified token. */
export interface RevocableToken {
  /** Session id (refresh-token family). A token without one has no session to end. */
  sid?: string;
}

/**
 * Ended sessions, shared by every process through Redis. Academic writes (logout, a reused refresh
 * token, a deactivated user or one whose claims changed: all their recent sessions); the gateway and
 * every service read, through the token verifier. Keys are session ids (random UUIDs), so they never
 * collide between deployments or test databases sharing a Redis. Entries live as long as a token may
 * (`ttlSeconds`, the maximum token lifetime plus the skew): by then every token they name has expired.
 */
export interface SessionRevocations {
  /** Ends these sessions: their access tokens are refused from now on. */
  revokeSessions(sessionIds: string[]): Promise<void>;
  /** True when the token's session was ended. Throws when Redis cannot answer. */
  isRevoked(token: RevocableToken): Promise<boolean>;
}

export const REVOCATION_KEY_PREFIX = 'auth:revoked-session';

export function createSessionRevocations(redis: Redis, options: { ttlSeconds: number; keyPrefix?: string }): SessionRevocations {
  const prefix = options.keyPrefix ?? REVOCATION_KEY_PREFIX;
  const key = (sid: string) => `${prefix}:${sid}`;
  return {
    async revokeSessions(sessionIds) {
      if (!sessionIds.length) return;
      const pipeline = redis.multi();
      for (const sid of new Set(sessionIds)) pipeline.set(key(sid), '1', 'EX', options.ttlSeconds);
      const results = await pipeline.exec();
      const failed = results?.find(([error]) => error);
      if (failed) throw failed[0];
    },
    async isRevoked(token) {
      return token.sid ? (await redis.exists(key(token.sid))) === 1 : false;
    },
  };
}
