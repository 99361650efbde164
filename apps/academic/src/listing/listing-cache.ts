import type { EntityManager } from '@mikro-orm/postgresql';
import type { Redis } from 'ioredis';
import type { Logger } from '@academy/kit';

export interface ListingCacheOptions {
  /** How long an entry is kept; a newer version makes it unreachable long before. */
  ttlSeconds?: number;
  /** After a failed Redis command, Redis is skipped for this long (answers come from PostgreSQL). */
  pauseAfterFailureMs?: number;
}

/**
 * Answers of the administrative student listing, kept in Redis as their JSON text under the
 * listing's version (`listing_versions`, bumped by the database at the commit of any change to
 * students, registrations or school courses, see the migration) and the normalized query.
 *
 * No stale answer: the version is read first, the data after it (a later snapshot), so an entry
 * never holds data older than its version, and every commit that changed what it shows has
 * already moved readers to a newer version. Each instance reads the same version from PostgreSQL,
 * so nothing needs invalidating. Redis down or paused: the kit client fails the command (at once,
 * or after 100 ms), Redis is skipped for a second and the answer comes from PostgreSQL.
 */
export class ListingCache {
  private readonly ttlSeconds: number;
  private readonly pauseAfterFailureMs: number;
  private readonly redis: Redis | null;
  private readonly logger: Logger;
  private skipUntil = 0;
  private lastFailureLogged = 0;

  constructor(redis: Redis | null, logger: Logger, options: ListingCacheOptions = {}) {
    this.redis = redis;
    this.logger = logger;
    this.ttlSeconds = options.ttlSeconds ?? 600;
    this.pauseAfterFailureMs = options.pauseAfterFailureMs ?? 1000;
  }

  /** The answer to `query` as JSON text, from the cache or from `load` (then kept). */
  async json(em: EntityManager, query: object, load: () => Promise<unknown>): Promise<string> {
    const redis = this.redis;
    if (!redis || redis.status !== 'ready' || Date.now() < this.skipUntil) return JSON.stringify(await load());
    const [row] = await em.getConnection().execute<{ epoch: string; version: string }[]>(`select epoch, version from listing_versions where name = 'students'`);
    if (!row) return JSON.stringify(await load());
    const key = `academic:students-listing:${row.epoch}:v${row.version}:${JSON.stringify(query)}`;
    try {
      const cached = await redis.get(key);
      if (cached !== null) return cached;
    } catch (error) {
      this.failed(error);
      return JSON.stringify(await load());
    }
    const json = JSON.stringify(await load());
    // Not awaited: the answer does not wait for the cache.
    redis.set(key, json, 'EX', this.ttlSeconds).catch((error: unknown) => this.failed(error));
    return json;
  }

  private failed(error: unknown): void {
    this.skipUntil = Date.now() + this.pauseAfterFailureMs;
    if (Date.now() - this.lastFailureLogged > 10_000) {
      this.lastFailureLogged = Date.now();
      this.logger.warn({ err: error }, 'listing cache unavailable: answering from PostgreSQL');
    }
  }
}
