// The admins' JSON attendance report, kept in Redis as its JSON text under the versions of what it
// shows (read by the attendance store, from attendance_report_versions). One per instance, in the context.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RedisGate, type Logger } from '@academy/kit';
import { inKeyedWrite } from '@academy/service';

/** The versions a report depends on: the database's epoch, `global`, and its subject's (or the sum over subjects). */
export interface ReportVersions {
  epoch: string;
  global: string;
  subjects: string;
}

/** Everything besides the versions that the report's answer depends on. */
export interface ReportKeyParts {
  from: string;
  to: string;
  timeZone: string;
  thresholdPercent: number;
  subjectId?: number;
  centerId?: number;
  below?: number;
}

export function reportCacheKey(prefix: string, versions: ReportVersions, parts: ReportKeyParts): string {
  const { from, to, timeZone, thresholdPercent, subjectId = null, centerId = null, below = null } = parts;
  const text = JSON.stringify([versions.epoch, versions.global, versions.subjects, from, to, timeZone, thresholdPercent, subjectId, centerId, below]);
  return `${prefix}:${createHash('sha256').update(text).digest('base64url')}`;
}

export interface ReportCacheOptions {
  logger: Logger;
  /** Redis key prefix. */
  prefix?: string;
  /** How long an answer is kept at most; a newer version makes it unreachable long before. */
  ttlSeconds?: number;
  /** After a failed command, Redis is skipped for this long (reports are computed). */
  pauseAfterFailureMs?: number;
}

/**
 * No stale answer: the writers bump the versions in their own transaction, and a reader reads them
 * before the report's data (a later snapshot). An answer is stored under versions no newer than the
 * data it holds (possibly older, when a change committed in between: a fresher answer under the old
 * key, which only readers that overlapped that commit can still ask for), and every reader that
 * starts after a commit reads the new versions, hence a new key. Every instance reads the versions
 * from PostgreSQL: nothing is ever invalidated in Redis, old keys are not asked for again and expire.
 * Redis down or slow (commands fail fast): the report is computed, as without a cache.
 */
export class AttendanceReportCache {
  private readonly options: Required<ReportCacheOptions>;
  private readonly gate: RedisGate;
  private readonly redis: Redis;

  constructor(redis: Redis, options: ReportCacheOptions) {
    this.redis = redis;
    this.options = { prefix: 'academic:attendance-report', ttlSeconds: 600, pauseAfterFailureMs: 1000, ...options };
    this.gate = new RedisGate(redis, this.options.logger, { pauseAfterFailureMs: this.options.pauseAfterFailureMs });
  }

  private usable(): boolean {
    return this.gate.usable();
  }

  private failed(error: unknown, what: string): void {
    this.gate.failed(error, `attendance report cache ${what} failed: computing the report`);
  }

  /** The report's JSON text, from Redis or from `load` (then stored, not awaited). */
  async json(readVersions: () => Promise<ReportVersions | null>, parts: ReportKeyParts, load: () => Promise<unknown>): Promise<string> {
    // A keyed write reads its own uncommitted rows, which nobody else may see: computed, not kept.
    if (!this.usable() || inKeyedWrite()) return JSON.stringify(await load());
    const versions = await readVersions();
    if (!versions) return JSON.stringify(await load());
    const key = reportCacheKey(this.options.prefix, versions, parts);
    try {
      const cached = await this.redis.get(key);
      if (cached !== null) return cached;
    } catch (error) {
      this.failed(error, 'read');
    }
    const json = JSON.stringify(await load());
    if (this.usable()) this.redis.set(key, json, 'EX', this.options.ttlSeconds).catch((error: unknown) => this.failed(error, 'write'));
    return json;
  }
}
