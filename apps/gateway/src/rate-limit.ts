import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError, type Logger } from '@academy/kit';
import type { Config } from './config.ts';

export class TooManyRequestsError extends AppError {
  constructor(retryAfterSeconds: number) {
    super(429, 'RATE_LIMITED', 'Too many requests, retry later', { headers: { 'retry-after': String(retryAfterSeconds) } });
  }
}

/**
 * Counters live in Redis so every gateway instance shares them. While Redis is unreachable each
 * instance counts in its own memory instead (the insurance limiter): limits loosen by the number
 * of instances but still hold, and requests neither fail nor wait on Redis. The client comes from
 * kit's `createRedis`: a hung Redis fails a command within 100 ms and drops the connection, after
 * which `rejectIfRedisNotReady` sends every count to the insurance limiter at once (no Redis call).
 */
function limiter(redis: Redis, keyPrefix: string, points: number): RateLimiterRedis {
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    points,
    duration: 60,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration: 60 }),
  });
}

export interface RateLimits {
  /**
   * Throws a 429 with Retry-After when the caller is over one of its limits: a signed-in user's own
   * limit (`userId`), an anonymous caller's address's (`ip`), or both when both are given.
   */
  check(input: { ip?: string; userId?: string }): Promise<void>;
}

export function createRateLimits(redis: Redis, config: Config, logger: Logger): RateLimits {
  const prefix = config.RATE_LIMIT_KEY_PREFIX;
  const perIp = limiter(redis, `${prefix}:ip`, config.RATE_LIMIT_IP_PER_MINUTE);
  const perUser = limiter(redis, `${prefix}:user`, config.RATE_LIMIT_USER_PER_MINUTE);
  return {
    async check({ ip, userId }) {
      const pending: Promise<RateLimiterRes>[] = [];
      if (ip !== undefined) pending.push(perIp.consume(ip));
      if (userId !== undefined) pending.push(perUser.consume(userId));
      const results = await Promise.allSettled(pending);
      const waits: number[] = [];
      for (const result of results) {
        if (result.status === 'fulfilled') continue;
        if (result.reason instanceof RateLimiterRes) waits.push(result.reason.msBeforeNext);
        // Neither Redis nor the insurance limiter could count: let the request through (fail open).
        else logger.warn({ err: result.reason }, 'rate limiter unavailable; request not counted');
      }
      if (waits.length) throw new TooManyRequestsError(Math.max(1, Math.ceil(Math.max(...waits) / 1000)));
    },
  };
}
