import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
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

/** Points taken from the shared counter at a time for a limit of `points` a minute: a sixtieth of it, 1 to 10. */
export function leaseSize(points: number): number {
  return Math.max(1, Math.min(10, Math.floor(points / 60)));
}

interface Lease {
  /** Points taken and not used yet. */
  left: number;
  /** The end of the counter's window (epoch ms). */
  resetAt: number;
  /** The counter was at the limit: everything is refused until `resetAt`, without asking Redis. */
  refused: boolean;
}

/**
 * A limiter that takes its points from the shared counter `leaseSize(points)` at a time and hands
 * them out from memory, so a busy key costs one Redis call per lease instead of one per request.
 * A lease is one `consume(key, size)`: the counter's value says how many of those points were still
 * under the limit (a lease near the end gets fewer, possibly none). So the instances together never
 * admit more than the limit; a caller spreading requests over N instances may be refused up to
 * N × (size − 1) points early (at most a sixtieth of the limit per instance). With a limit under 120
 * a minute a lease is one point: counting is exact, as before. Concurrent requests of one key share
 * one lease call. Leases live in a bounded LRU, and end with the counter's window.
 */
function leased(limiter: RateLimiterRedis, points: number): { consume(key: string): Promise<void> } {
  const size = leaseSize(points);
  const leases = new LRUCache<string, Lease>({ max: 50_000 });
  const taking = new Map<string, Promise<void>>();

  const take = async (key: string): Promise<void> => {
    let answer: RateLimiterRes;
    try {
      answer = await limiter.consume(key, size);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      answer = error;
    }
    const before = answer.consumedPoints - size;
    const granted = Math.max(0, Math.min(size, points - before));
    leases.set(key, { left: granted, resetAt: Date.now() + answer.msBeforeNext, refused: granted === 0 });
  };

  return {
    async consume(key) {
      for (;;) {
        const lease = leases.get(key);
        if (lease && Date.now() < lease.resetAt) {
          if (lease.left > 0) {
            lease.left--;
            return;
          }
          if (lease.refused) throw new RateLimiterRes(0, lease.resetAt - Date.now(), points, false);
        }
        let pending = taking.get(key);
        if (!pending) {
          pending = take(key).finally(() => taking.delete(key));
          taking.set(key, pending);
        }
        await pending;
      }
    },
  };
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
  const perIp = leased(limiter(redis, `${prefix}:ip`, config.RATE_LIMIT_IP_PER_MINUTE), config.RATE_LIMIT_IP_PER_MINUTE);
  const perUser = leased(limiter(redis, `${prefix}:user`, config.RATE_LIMIT_USER_PER_MINUTE), config.RATE_LIMIT_USER_PER_MINUTE);
  return {
    async check({ ip, userId }) {
      const pending: Promise<void>[] = [];
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
