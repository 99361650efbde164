import { LRUCache } from 'lru-cache';

/** The listing's version (`listing_versions`, read by the listing's store). */
export interface ListingVersion {
  epoch: string;
  version: string;
}

export interface ListingCacheOptions {
  /** The answers kept, by the length of their JSON text (32 MB by default). */
  maxBytes?: number;
  /** How long an answer is kept at most; a newer version makes it unreachable long before. */
  ttlMs?: number;
}

/**
 * Answers of a listing, kept in this process's memory (an LRU bounded in bytes) as their JSON text,
 * under the listing's version (a row of `listing_versions`, bumped by the database at the commit of
 * any change to what the listing shows, see the migrations: the administrative student listing's
 * `students`, the pending review queue's `pending_blocks`) and the normalized query.
 *
 * No stale answer: the version is read first and the data after it (a later snapshot), so an
 * answer never holds data older than its version, and every commit that changed what it shows has
 * already moved readers to a newer version. Every instance reads the version from PostgreSQL, so
 * nothing needs invalidating; answers of old versions are simply never asked for again and leave
 * the LRU first.
 */
export class ListingCache {
  private readonly answers: LRUCache<string, string>;

  constructor(options: ListingCacheOptions = {}) {
    this.answers = new LRUCache<string, string>({ maxSize: options.maxBytes ?? 32 * 1024 * 1024, sizeCalculation: (json) => Math.max(1, json.length), ttl: options.ttlMs ?? 600_000 });
  }

  /** The answer to `query` as JSON text, from the cache or from `load` (then kept). */
  async json(readVersion: () => Promise<ListingVersion | undefined>, query: object, load: () => Promise<unknown>): Promise<string> {
    return this.text(readVersion, query, async () => JSON.stringify(await load()));
  }

  /** The same, for an answer `load` gives as JSON text already (written by PostgreSQL). */
  async text(readVersion: () => Promise<ListingVersion | undefined>, query: object, load: () => Promise<string>): Promise<string> {
    const row = await readVersion();
    if (!row) return load();
    const key = `${row.epoch}:${row.version}:${JSON.stringify(query)}`;
    const cached = this.answers.get(key);
    if (cached !== undefined) return cached;
    const json = await load();
    this.answers.set(key, json);
    return json;
  }

  /** The bytes of JSON held. */
  get size(): number {
    return this.answers.calculatedSize;
  }
}
