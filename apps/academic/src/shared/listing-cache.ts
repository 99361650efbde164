import { LRUCache } from 'lru-cache';

/** The listing's version (`listing_versions`, read by the listing's store). */
export interface ListingVersion {
  epoch: string;
  version: string;
}

/** An answer and the version read by the same statement (`version` undefined: the listing has none). */
export interface VersionedAnswer {
  version: ListingVersion | undefined;
  json: string;
}

export interface ListingCacheOptions {
  /** The answers kept, by the length of their JSON text (32 MB by default). */
  maxBytes?: number;
  /** How long an answer is kept at most; a newer version makes it unreachable long before. */
  ttlMs?: number;
  /** How many queries (without their version) are remembered as asked before (10,000 by default). */
  maxQueriesSeen?: number;
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
 *
 * A query this process has not asked before (a new cursor, most often) cannot be in the cache under
 * any version, so reading the version first would only cost a round trip: when the caller gives
 * `loadWithVersion`, such a query runs one statement that reads the version and the answer together,
 * and the answer is kept under the version that statement read. Still no stale answer: one statement
 * reads one snapshot, and the version is bumped by the very transaction that changes the data (at its
 * commit), so a commit is in that snapshot with its bump or not at all; the answer is exactly the
 * data of its version, and a commit it does not show moves every later reader to a newer version.
 * Which queries were asked is a bounded LRU of their keys without the version; one forgotten is only
 * asked again the one-statement way. A query asked before (its answer kept under an older version, or
 * fallen out) reads the version first as above.
 */
export class ListingCache {
  private readonly answers: LRUCache<string, string>;
  private readonly seen: LRUCache<string, true>;

  constructor(options: ListingCacheOptions = {}) {
    this.answers = new LRUCache<string, string>({ maxSize: options.maxBytes ?? 32 * 1024 * 1024, sizeCalculation: (json) => Math.max(1, json.length), ttl: options.ttlMs ?? 600_000 });
    this.seen = new LRUCache<string, true>({ max: options.maxQueriesSeen ?? 10_000 });
  }

  /** The answer to `query` as JSON text, from the cache or from `load` (then kept). */
  async json(readVersion: () => Promise<ListingVersion | undefined>, query: object, load: () => Promise<unknown>): Promise<string> {
    return this.text(readVersion, query, async () => JSON.stringify(await load()));
  }

  /**
   * The same, for an answer `load` gives as JSON text already (written by PostgreSQL). With
   * `loadWithVersion` (the version and the answer of one statement), a query not asked before costs
   * that one statement instead of the version's read and `load`.
   */
  async text(readVersion: () => Promise<ListingVersion | undefined>, query: object, load: () => Promise<string>, loadWithVersion?: () => Promise<VersionedAnswer>): Promise<string> {
    const asked = JSON.stringify(query);
    if (loadWithVersion && this.seen.get(asked) === undefined) {
      // Marked before the statement: the same query asked meanwhile takes the two-statement way.
      this.seen.set(asked, true);
      const { version, json } = await loadWithVersion();
      if (version) this.answers.set(`${version.epoch}:${version.version}:${asked}`, json);
      return json;
    }
    const row = await readVersion();
    if (!row) return load();
    const key = `${row.epoch}:${row.version}:${asked}`;
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
