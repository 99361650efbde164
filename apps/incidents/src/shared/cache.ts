import type { Redis } from 'ioredis';
import { RedisGate, type Logger } from '@academy/kit';
import { afterCommit, inKeyedWrite } from '@academy/service';

/** What a cached read depends on: an incident (detail, threads) or an employee (their list). */
export type CacheScope = { incident: number } | { employee: number };

/**
 * Reads one scope's version and the entry at that version, in one round trip. The version key's
 * life is stretched on each read (ARGV[2]) so it always outlives every entry written under it:
 * a version key that is gone has no live entries, and counting again from 0 is safe.
 */
const READ_SCRIPT = `
local version = redis.call('GET', KEYS[1])
if version then redis.call('EXPIRE', KEYS[1], ARGV[2]) else version = '0' end
return { version, redis.call('GET', ARGV[1] .. ':v' .. version) }
`;

interface CacheRedis extends Redis {
  cacheRead(versionKey: string, entryBase: string, versionTtl: number): Promise<[string, string | null]>;
}

export interface CacheOptions {
  prefix: string;
  ttlSeconds: number;
  logger: Logger;
  /** After a failed command, Redis is skipped for this long (reads go straight to PostgreSQL). */
  pauseAfterFailureMs?: number;
  /** How often failed invalidations are retried. */
  retryIntervalMs?: number;
}

/**
 * The 24-hour read cache of incidents, safe against stale reads by versioned keys: an entry's key
 * holds the version of its scope, and every write bumps that version after its commit. A reader
 * that raced a writer can only store its old value under the old version, which nobody reads
 * again. Redis down or paused: reads and writes go on from PostgreSQL (commands fail fast, see
 * `createRedis`), and a bump that failed is retried until it lands; until then the scope is not
 * read from (nor written to) the cache by this instance.
 */
export class IncidentCache {
  private readonly redis: CacheRedis;
  private readonly options: Required<CacheOptions>;
  private readonly gate: RedisGate;
  private readonly pendingBumps = new Set<string>();
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(redis: Redis, options: CacheOptions) {
    this.options = { pauseAfterFailureMs: 1000, retryIntervalMs: 500, ...options };
    if (!('cacheRead' in redis)) redis.defineCommand('cacheRead', { numberOfKeys: 1, lua: READ_SCRIPT });
    this.redis = redis as CacheRedis;
    this.gate = new RedisGate(redis, this.options.logger, { pauseAfterFailureMs: this.options.pauseAfterFailureMs });
  }

  private versionKey(scope: CacheScope): string {
    return 'incident' in scope ? `${this.options.prefix}:ver:incident:${scope.incident}` : `${this.options.prefix}:ver:employee:${scope.employee}`;
  }

  private usable(): boolean {
    return this.gate.usable();
  }

  private failed(error: unknown, what: string): void {
    this.gate.failed(error, `cache ${what} failed: answering from PostgreSQL`);
  }

  /**
   * The value of `entry` in `scope`, from the cache or from `load` (then stored for the TTL). The
   * entry name must say everything the value depends on besides the scope's version.
   */
  async read<T>(scope: CacheScope, entry: string, load: () => Promise<T>): Promise<T> {
    const versionKey = this.versionKey(scope);
    // A keyed write reads its own uncommitted rows, which nobody else may see: straight from PostgreSQL, not kept.
    if (!this.usable() || this.pendingBumps.has(versionKey) || inKeyedWrite()) return load();
    const entryBase = `${this.options.prefix}:${entry}`;
    let version: string;
    try {
      const [found, cached] = await this.redis.cacheRead(versionKey, entryBase, 2 * this.options.ttlSeconds);
      if (cached !== null) return JSON.parse(cached) as T;
      version = found;
    } catch (error) {
      this.failed(error, 'read');
      return load();
    }
    const value = await load();
    // Not awaited: the answer does not wait for the cache.
    this.redis.set(`${entryBase}:v${version}`, JSON.stringify(value), 'EX', this.options.ttlSeconds).catch((error: unknown) => this.failed(error, 'write'));
    return value;
  }

  /**
   * After a commit: every entry of these scopes becomes unreachable. Never throws. Inside a keyed
   * write it waits for that write's commit (a reader in between would cache the rows from before
   * it under the new version), and a write that rolls back invalidates nothing.
   */
  async invalidate(...scopes: CacheScope[]): Promise<void> {
    if (scopes.length === 0) return;
    const keys = scopes.map((scope) => this.versionKey(scope));
    await afterCommit(async () => {
      for (const key of keys) this.pendingBumps.add(key);
      await this.flushBumps(keys);
    });
  }

  private async flushBumps(keys: string[]): Promise<void> {
    try {
      if (this.redis.status !== 'ready') throw new Error(`redis is ${this.redis.status}`);
      const pipeline = this.redis.pipeline();
      for (const key of keys) pipeline.incr(key).expire(key, 2 * this.options.ttlSeconds);
      const results = (await pipeline.exec()) ?? [];
      const failure = results.find(([error]) => error)?.[0];
      if (failure) throw failure;
      for (const key of keys) this.pendingBumps.delete(key);
    } catch (error) {
      this.failed(error, 'invalidation');
      this.scheduleRetry();
    }
  }

  private scheduleRetry(): void {
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.pendingBumps.size) void this.flushBumps([...this.pendingBumps]);
    }, this.options.retryIntervalMs);
    this.retryTimer.unref();
  }

  /** Invalidations still waiting for Redis (0 when the cache is consistent). */
  get pendingInvalidations(): number {
    return this.pendingBumps.size;
  }

  stop(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }
}
