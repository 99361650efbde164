import { Redis } from 'ioredis';
import type { ReadinessCheck } from './health.ts';

/**
 * A Redis client for caches and shared counters. Commands fail fast while Redis is away (no
 * offline queue), so a cache outage degrades to "miss" instead of hanging requests.
 */
export function createRedis(url: string, options: { keyPrefix?: string } = {}): Redis {
  return new Redis(url, {
    keyPrefix: options.keyPrefix,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    lazyConnect: false,
  });
}

export function redisReadiness(redis: Redis): ReadinessCheck {
  return {
    name: 'cache',
    check: async () => {
      await redis.ping();
    },
  };
}
