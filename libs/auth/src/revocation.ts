import type { Redis } from 'ioredis';

/** What a revocation check needs of a verified token. */
export interface RevocableToken {
  sub: string;
  /** Session id (refresh-token family); tokens without one can only be revoked with their user. */
  sid?: string;
  /** Issued at, in seconds. */
  iat: number;
}

/**
 * Ended sessions, shared by every process through Redis. Academic writes (logout, a reused refresh
 * token, a deactivated user); the gateway and every service read, through the token verifier.
 * Entries live as long as a token may (`ttlSeconds`, the maximum token lifetime plus the skew):
 * by then every token they name has expired anyway.
 */
export interface SessionRevocations {
  /** Ends these sessions: their access tokens are refused from now on. */
  revokeSessions(sessionIds: string[]): Promise<void>;
  /** Ends every token of the user issued before now (deactivation). */
  revokeUser(userId: number | string): Promise<void>;
  /** True when the token's session or user was revoked. Throws when Redis cannot answer. */
  isRevoked(token: RevocableToken): Promise<boolean>;
}

export const REVOCATION_KEY_PREFIX = 'auth:revoked';

export function createSessionRevocations(redis: Redis, options: { ttlSeconds: number; keyPrefix?: string }): SessionRevocations {
  const prefix = options.keyPrefix ?? REVOCATION_KEY_PREFIX;
  const sessionKey = (sid: string) => `${prefix}:session:${sid}`;
  const userKey = (sub: string | number) => `${prefix}:user:${sub}`;
  const ttl = options.ttlSeconds;
  return {
    async revokeSessions(sessionIds) {
      if (!sessionIds.length) return;
      const pipeline = redis.multi();
      for (const sid of new Set(sessionIds)) pipeline.set(sessionKey(sid), '1', 'EX', ttl);
      const results = await pipeline.exec();
      const failed = results?.find(([error]) => error);
      if (failed) throw failed[0];
    },
    async revokeUser(userId) {
      await redis.set(userKey(userId), String(Date.now()), 'EX', ttl);
    },
    async isRevoked(token) {
      const [session, user] = token.sid ? await redis.mget(sessionKey(token.sid), userKey(token.sub)) : [null, await redis.get(userKey(token.sub))];
      if (session) return true;
      // Revoked when issued before the revocation (iat has whole seconds: a token of the same second counts as before).
      return user !== null && token.iat * 1000 < Number(user);
    },
  };
}
