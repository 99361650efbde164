import { AsyncLocalStorage } from 'node:async_hooks';
import { hash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { RequestHandler, Response } from 'express';
import { defineEntity, p, type EntityManager, type MikroORM } from '@mikro-orm/postgresql';
import { AppError, BadRequestError, RecordedAnswer, awaitBodyDigest, type Logger } from '@academy/kit';
import { Sql, beginWith, commitWith, requestEntityManager, runInRequestScope, sqlLiteral } from '@academy/db';
import { bearerToken, type TokenVerifier } from '@academy/auth';
import { matchRoute } from '@academy/contracts';

// `Idempotency-Key` (Stripe's API; the IETF httpapi draft): a write sent again with the same key
// returns the first outcome instead of happening twice.
//
// A keyed write runs in one database transaction that the request's EntityManager carries (MikroORM's
// request scope, `@academy/db`): the route's writes, ORM or raw SQL through `@academy/db`'s `sql`, join it, and the
// key with the answer is inserted into it just before it commits, when the answer is known. So the
// effect and the key commit together or not at all: a 5xx, or a crash before the commit, leaves
// neither, and the retry runs. While it runs, the transaction holds an advisory lock on the key: the
// same key meanwhile is 409 with `Retry-After: 1`, never a second execution.
//
// That is the one wrapper of every keyed write (eShop's IdentifiedCommandHandler): `requestScope`
// below, which every service mounts before its routes. The use case writes in that transaction
// (its flushes and `Sql` statements resolve to the request's EntityManager) and knows nothing of keys.
//
// Where one round trip matters (hours additions), the route says so in its binding (`keyInStatement`)
// and the key's work moves into its store's one statement, written there by hand: the wrapper opens
// no transaction, and hands the route a `StatementKey` (`statementKeyOf(req)`) that it passes to its
// use case in the input, and the use case to its store. The statement's CTEs take the key's advisory
// lock first (every write of the statement is conditioned on it), look up a stored answer, and insert
// the key with the statement's row as the answer (`status` 0, `body` the row's JSON); `record` runs
// it and answers the row the first time, the stored row on a replay (`Idempotent-Replayed: true`;
// the use case then answers from it as the first time did), 409 with `Retry-After: 1` when another
// request holds the lock (nothing of the statement ran, nothing waited), 422 for another request.
// A first request that commits between the statement's snapshot and its lock makes the key's
// primary key refuse the statement as a whole: `record` then reads the stored row and replays it.
//
// A multipart body (an upload) streams to storage as the route reads it, so what it carried is known
// only once it has been read: such a route's keyed request takes the key's lock and looks up its
// stored answer first, as any other, and the body's digest (its fields and files, hashed as they
// stream, `parseMultipart`) is compared once the body is read, before anything of it is kept. A
// stored answer is then replayed for the same parts, and is 422 for others; the files just stored
// are removed either way. Without a stored answer, the digest is the fingerprint stored with the key.
//
// An answer that says "try again" (408, 425, 429, a 5xx, or any answer with `Retry-After`: a batch
// still being read, the same key still running) is not stored, and its transaction rolls back: once
// the condition has cleared, the same key runs the work.

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** 1 to 255 printable ASCII characters (space to tilde). */
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;
/** The `status` of a key whose stored answer is the row of a store's keyed statement (`body`: its JSON), not an HTTP answer. */
const ROWS_STATUS = 0;

/** A key remembered with the answer of its first request; the lib owns the table. */
export const IdempotencyRecord = defineEntity({
  name: 'IdempotencyRecord',
  tableName: 'idempotency_keys',
  properties: {
    /** Whose key, on which route: `u:<userId> <METHOD> <path>` (anonymous writes: `a:<fingerprint> …`). */
    scope: p.string().length(600).primary(),
    key: p.string().length(255).primary(),
    /** SHA-256 of method, path and body: the same key with another request is refused. */
    fingerprint: p.string().length(64),
    status: p.integer(),
    contentType: p.string().nullable(),
    body: p.text(),
    createdAt: p.datetime(),
    expiresAt: p.datetime().index(),
  },
});

export const idempotencyEntities = [IdempotencyRecord];

export interface IdempotencyOptions {
  orm: MikroORM;
  verifier: TokenVerifier;
  logger: Logger;
  ttlHours: number;
  now: () => Date;
}

const badKey = () =>
  new BadRequestError('INVALID_IDEMPOTENCY_KEY', 'Idempotency-Key must be 1 to 255 printable ASCII characters (no control characters)');
const severalKeys = () => new BadRequestError('INVALID_IDEMPOTENCY_KEY', 'Send one Idempotency-Key header, not several');

/** The key of a write, or null when it has none; a malformed key, or several, throws a 400 naming the header. */
export function idempotencyKeyOf(req: IncomingMessage): string | null {
  const joined = req.headers[IDEMPOTENCY_HEADER];
  if (joined === undefined) return null;
  // Node joins a repeated header with ", " in `headers` ("aaa, bbb", a valid key): its distinct values tell
  // them apart. A value without a comma was sent once; `headersDistinct` (an object of every header, built
  // on each read) is read only otherwise.
  if (typeof joined === 'string' && !joined.includes(',')) {
    if (!KEY_PATTERN.test(joined)) throw badKey();
    return joined;
  }
  const sent = req.headersDistinct?.[IDEMPOTENCY_HEADER] ?? [joined].flat();
  if (sent.length > 1) throw severalKeys();
  const header = sent[0]!;
  if (!KEY_PATTERN.test(header)) throw badKey();
  return header;
}

type FingerprintedRequest = IncomingMessage & { body?: unknown; originalUrl?: string };

function fingerprintOf(req: FingerprintedRequest, body: unknown): string {
  // One-shot `hash` (no Hash object to build, update and digest): the same SHA-256 at a third of the CPU.
  return hash('sha256', JSON.stringify([req.method, req.originalUrl ?? req.url, body]), 'hex');
}

/**
 * What identifies a request: method, path with query, and its body: JSON as parsed; a multipart body
 * its route streams by the digest of its parts (`multipartDigest`, known once read); any other, which
 * no route reads, by type and length.
 */
export function requestFingerprint(req: FingerprintedRequest, multipartDigest?: string): string {
  if (multipartDigest !== undefined) return fingerprintOf(req, { multipart: multipartDigest });
  const mediaType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  return fingerprintOf(req, req.body !== undefined ? req.body : { mediaType, length: req.headers['content-length'] ?? null });
}

/** An answer that tells the client to try again later: never stored with the key, so the same key then runs the work. */
export function isRetryableAnswer(status: number, retryAfter: unknown): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500 || retryAfter !== undefined;
}

/** Side effects a rollback cannot undo, held until the keyed write's transaction ends. */
interface OpenWrite {
  open: boolean;
  afterCommit: (() => unknown)[];
  onRollback: (() => unknown)[];
}

/** The keyed write the current request runs in, while its transaction is open. */
const keyedWrites = new AsyncLocalStorage<OpenWrite>();

function currentWrite(): OpenWrite | undefined {
  const write = keyedWrites.getStore();
  return write?.open ? write : undefined;
}

/**
 * Whether this request is a keyed write whose transaction is still open: its reads see its own
 * uncommitted writes, so they must not be cached for other requests.
 */
export function inKeyedWrite(): boolean {
  return currentWrite() !== undefined;
}

/**
 * Runs `work` once the request's writes are committed: at once outside a keyed write (its writes
 * committed as they went), and inside one after its commit (before the answer leaves), never if it
 * rolls back. For what a rollback cannot undo, such as a cache invalidation. The returned promise
 * is `work`'s when it ran at once.
 */
export async function afterCommit(work: () => unknown): Promise<void> {
  const write = currentWrite();
  if (write) write.afterCommit.push(work);
  else await work();
}

/** Runs `work` if the request's keyed write rolls back (a 5xx, a failed commit); outside one, never. E.g. removing stored files. */
export function onRollback(work: () => unknown): void {
  currentWrite()?.onRollback.push(work);
}

async function runAll(works: (() => unknown)[], logger: Logger, what: string): Promise<void> {
  for (const work of works) {
    await Promise.resolve()
      .then(work)
      .catch((error: unknown) => logger.warn({ err: error }, `idempotency: ${what} failed`));
  }
}

interface StoredAnswer {
  fingerprint: string;
  status: number;
  contentType: string | null;
  body: string;
}

/**
 * The request scope of a service: every request gets its own EntityManager (forked on first use,
 * `@academy/db`'s request scope); a write with an `Idempotency-Key` gets one in a transaction that
 * records the key with its answer, as described above.
 */
export function requestScope(options: IdempotencyOptions): RequestHandler {
  const { orm } = options;
  return (req, res, next) => {
    if (!WRITE_METHODS.has(req.method) || req.headers[IDEMPOTENCY_HEADER] === undefined) return runInRequestScope(orm.em, next);
    // Its refusals (400, 409, 422) come in the error body of the route family, set before any route runs.
    const rule = matchRoute(req.path);
    if (rule) res.locals.errorStyle ??= rule.errorStyle;
    let key: string | null;
    try {
      key = idempotencyKeyOf(req);
    } catch (error) {
      return next(error);
    }
    // A write without a signed-in user (login, refresh, logout) is not remembered: its answer is credentials, never stored.
    const token = bearerToken(req.headers.authorization);
    const claims = token ? options.verifier.verify(token) : null;
    if (key === null || !claims) return runInRequestScope(orm.em, next);
    if (recordsKeyInStatement(req)) {
      // No transaction of its own: the route hands the key to its store, whose statement records it (`StatementKey`).
      statementKeys.set(req, new StatementKey(options, key, claims.sub, req, res));
      return runInRequestScope(orm.em, next);
    }
    runInRequestScope(orm.em, () => {
      runKeyed(options, key, claims.sub, req, res, next).catch(next);
    });
  };
}

async function runKeyed(options: IdempotencyOptions, key: string, userId: string, req: Parameters<RequestHandler>[0], res: Response, next: (error?: unknown) => void): Promise<void> {
  // A multipart body its route streams is fingerprinted once read (see the top of this file); any other now.
  const streamed = isStreamedBody(req);
  let fingerprint: string | null = streamed ? null : requestFingerprint(req);
  // Two users' equal keys never meet, nor one user's keys on two routes.
  const scope = `u:${userId} ${req.method} ${req.path}`;

  // The request's own EntityManager carries the transaction: its flushes and `Sql`'s statements join it.
  const em = requestEntityManager(options.orm.em) ?? options.orm.em.fork();
  const now = options.now();
  // With the BEGIN, in its round trip: the lock on the key, then (a statement of its own, so its
  // snapshot is taken once the lock is held and sees a first request that committed meanwhile) the stored answer.
  const [lock, lookup] = await beginWith(
    em,
    `select pg_try_advisory_xact_lock(hashtextextended(${sqlLiteral(`${scope}\n${key}`)}, 0)) as locked;
     select fingerprint, status, content_type as "contentType", body from idempotency_keys
     where scope = ${sqlLiteral(scope)} and key = ${sqlLiteral(key)} and expires_at > ${sqlLiteral(now)}`,
  );
  let settled = false;
  const write: OpenWrite = { open: true, afterCommit: [], onRollback: [] };
  const rollback = async () => {
    if (settled) return;
    settled = true;
    write.open = false;
    await em.rollback().catch((error: unknown) => options.logger.warn({ err: error }, 'idempotency: rollback failed'));
    await runAll(write.onRollback, options.logger, 'work after rollback');
  };
  const locked = (lock!.rows[0] as { locked: boolean }).locked;
  const stored = lookup!.rows[0] as StoredAnswer | undefined;
  if (!locked) {
    await rollback();
    throw keyInUse();
  }
  /** The stored answer for this fingerprint: replayed (thrown, for the error handler to send), or 422 for another request. */
  const replay = (stored: StoredAnswer, fingerprint: string): never => {
    if (stored.fingerprint !== fingerprint) throw keyReused();
    // The row of a store's keyed statement (the route recorded its key there in a version before this one): no answer to replay, and no second execution.
    if (stored.status === ROWS_STATUS) {
      throw new AppError(409, 'IDEMPOTENCY_KEY_USED', 'This Idempotency-Key was used by an earlier version of this route, whose answer cannot be replayed; use a new key to write again');
    }
    res.setHeader(REPLAYED_HEADER, 'true');
    throw new RecordedAnswer(stored.status, stored.contentType, stored.body);
  };
  if (stored && !streamed) {
    await rollback();
    replay(stored, fingerprint!);
  }
  if (streamed) {
    // Once the route has read the body, before it keeps anything of it: its fingerprint, and the stored answer's verdict.
    awaitBodyDigest(req, async (digest) => {
      fingerprint = requestFingerprint(req, digest);
      if (!stored) return;
      await rollback();
      replay(stored, fingerprint);
    });
  }

  commitWithTheAnswer(res, async (status, body, replayable) => {
    if (settled) return;
    // A stored answer found: whatever was answered (its replay, a 422, a refusal before the body was read) changed nothing.
    if (stored || isRetryableAnswer(status, res.getHeader('retry-after'))) return rollback();
    if (fingerprint === null) {
      // The route never read the multipart body it declared: a refusal before it (stored nothing, kept nothing) is answered as
      // it is; a success without it cannot be fingerprinted, so it rolls back loudly rather than commit unguarded.
      if (status < 400) {
        await rollback();
        throw new Error(`${req.method} ${req.path} declares a multipart body but answered ${status} without reading it`);
      }
      replayable = false;
    }
    if (replayable) {
      // With the COMMIT, in its round trip, one statement. The key's expired row, if not pruned yet,
      // is replaced; a live one cannot exist (the lock is held since the lookup, which found none).
      const at = options.now();
      const values = [scope, key, fingerprint!, status, headerText(res.getHeader('content-type')), body, at, new Date(at.getTime() + options.ttlHours * 3_600_000)];
      commitWith(
        em,
        `insert into idempotency_keys as k (scope, key, fingerprint, status, content_type, body, created_at, expires_at) values (${values.map(sqlLiteral).join(', ')})
         on conflict (scope, key) do update set fingerprint = excluded.fingerprint, status = excluded.status, content_type = excluded.content_type,
           body = excluded.body, created_at = excluded.created_at, expires_at = excluded.expires_at
         where k.expires_at <= excluded.created_at`,
      );
    }
    settled = true;
    write.open = false;
    try {
      await em.commit();
    } catch (error) {
      // A refused COMMIT (a deferred constraint) ended the transaction, but the connection stays
      // taken until a rollback releases it: without it the pool lost one connection per failure.
      await em.rollback().catch((failure: unknown) => options.logger.warn({ err: failure }, 'idempotency: rollback after a failed commit failed'));
      await runAll(write.onRollback, options.logger, 'work after rollback');
      throw error;
    }
    await runAll(write.afterCommit, options.logger, 'work after commit');
  });
  keyedWrites.run(write, next);
}

const keyInUse = () =>
  new AppError(409, 'IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed; retry shortly', { headers: { 'Retry-After': '1' } });
const keyReused = () => new AppError(422, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request');

/** Routes that stream a multipart body (uploads), by the app they are mounted on (`declareStreamedBody`). */
const streamedBodies = new WeakMap<object, { method: string; pattern: RegExp }[]>();

/**
 * Declares that `METHOD path` on `app` streams a multipart body (`parseMultipart`): a keyed request
 * of it is fingerprinted by the body's parts, once read (see the top of this file). `routeBinder`
 * declares every route whose contract takes multipart.
 */
export function declareStreamedBody(app: object, method: string, path: string): void {
  const routes = streamedBodies.get(app) ?? [];
  routes.push({ method: method.toUpperCase(), pattern: pathPattern(path) });
  streamedBodies.set(app, routes);
}

function isStreamedBody(req: Parameters<RequestHandler>[0]): boolean {
  return Boolean(req.is('multipart/form-data')) && (streamedBodies.get(req.app)?.some((route) => route.method === req.method && route.pattern.test(req.path)) ?? false);
}

/** Express's path syntax (`:id`) as a pattern of a request's path. */
function pathPattern(path: string): RegExp {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+');
  return new RegExp('^' + escaped + '/?$');
}

/** Routes whose store records the key in its own statement, by the app they are mounted on (`declareKeyInStatement`). */
const keysInStatement = new WeakMap<object, { method: string; pattern: RegExp }[]>();

/** Declares that `METHOD path` (Express syntax, `:id`) on `app` records its key in its store's statement: see the top of this file. */
export function declareKeyInStatement(app: object, method: string, path: string): void {
  const routes = keysInStatement.get(app) ?? [];
  routes.push({ method: method.toUpperCase(), pattern: pathPattern(path) });
  keysInStatement.set(app, routes);
}

function recordsKeyInStatement(req: Parameters<RequestHandler>[0]): boolean {
  return keysInStatement.get(req.app)?.some((route) => route.method === req.method && route.pattern.test(req.path)) ?? false;
}

/** A unique violation of the key's primary key: another request recorded it first. */
const isKeyTaken = (error: unknown) => (error as { code?: string; constraint?: string })?.code === '23505' && (error as { constraint?: string }).constraint === 'idempotency_keys_pkey';

/** The columns a keyed statement answers besides its own: whether it got the key's lock, and the live answer stored under the key (`row_to_json`). */
export interface KeyColumns {
  key_locked: boolean;
  key_stored: { fingerprint: string; status: number; content_type: string | null; body: string } | null;
}

/**
 * The `Idempotency-Key` of a write whose store records it in its own statement, by hand (see the
 * top of this file): the values its CTEs take, and `record`, which runs that statement and answers.
 */
export class StatementKey {
  /** The text of the key's advisory lock (`pg_try_advisory_xact_lock(hashtextextended(lock, 0))`), the transaction path's too. */
  readonly lock: string;
  readonly scope: string;
  readonly key: string;
  readonly fingerprint: string;
  /** The request's "now": a stored answer is live while `expires_at > at`; the key's `created_at`. */
  readonly at: Date;
  readonly expiresAt: Date;
  /** The status of a key whose stored answer is the statement's row (`body`: its JSON). */
  readonly rowStatus = ROWS_STATUS;
  private readonly orm: MikroORM;
  private readonly res: Response;

  constructor(options: IdempotencyOptions, key: string, userId: string, req: Parameters<RequestHandler>[0], res: Response) {
    this.scope = `u:${userId} ${req.method} ${req.path}`;
    this.key = key;
    this.lock = `${this.scope}\n${key}`;
    this.fingerprint = requestFingerprint(req);
    this.at = options.now();
    this.expiresAt = new Date(this.at.getTime() + options.ttlHours * 3_600_000);
    this.orm = options.orm;
    this.res = res;
  }

  /**
   * Runs the store's keyed statement (`run`, one round trip) and answers its row, the row stored by
   * the first request (replayed), or the first request's stored HTTP answer (thrown, as it was). The
   * same key with another request is 422; while another request holds it, 409 with `Retry-After: 1`.
   */
  async record<Row extends object>(run: () => Promise<Row & KeyColumns>): Promise<Row> {
    // At most twice: again only when the key found was past its time (deleted here) or pruned meanwhile.
    for (let attempt = 0; attempt < 2; attempt++) {
      let answered: Row & KeyColumns;
      try {
        answered = await run();
      } catch (error) {
        // A first request committed between this statement's snapshot and its lock: the key's primary key refused it as a whole.
        if (!isKeyTaken(error) || attempt > 0) throw error;
        const stored = await this.storedAnswer();
        if (!stored) continue;
        return this.replay(stored);
      }
      const { key_locked: locked, key_stored: stored, ...row } = answered;
      if (!locked) throw keyInUse();
      if (stored) return this.replay({ fingerprint: stored.fingerprint, status: stored.status, contentType: stored.content_type, body: stored.body });
      return row as unknown as Row;
    }
    throw new Error(`the key of ${this.scope} was taken twice`);
  }

  /** The answer stored under the key, once a first request recorded it; an expired one is deleted (the statement then runs again). */
  private async storedAnswer(): Promise<StoredAnswer | null> {
    const sql = new Sql(this.orm.em);
    const [stored] = await sql.query<StoredAnswer & { expired: boolean }>(
      `select fingerprint, status, content_type as "contentType", body, expires_at <= $3 as expired from idempotency_keys where scope = $1 and key = $2`,
      [this.scope, this.key, this.at],
    );
    if (!stored?.expired) return stored ?? null;
    await sql.query(`delete from idempotency_keys where scope = $1 and key = $2 and expires_at <= $3`, [this.scope, this.key, this.at]);
    return null;
  }

  private replay<Row>(stored: StoredAnswer): Row {
    if (stored.fingerprint !== this.fingerprint) throw keyReused();
    this.res.setHeader(REPLAYED_HEADER, 'true');
    if (stored.status === ROWS_STATUS) return JSON.parse(stored.body) as Row;
    // Answered when the route recorded its key in a transaction (a version before this one): that answer, as it was.
    throw new RecordedAnswer(stored.status, stored.contentType, stored.body);
  }
}

/** The requests whose store records their key in its statement, with that key. */
const statementKeys = new WeakMap<IncomingMessage, StatementKey>();

/** The key of this request when its route records it in its store's statement (`keyInStatement`); null without a key. */
export function statementKeyOf(req: IncomingMessage): StatementKey | null {
  return statementKeys.get(req) ?? null;
}

function headerText(value: ReturnType<Response['getHeader']>): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/**
 * Holds the answer back until `commit(status, body)` has finished: the client hears of the write
 * only once it (and its key) are committed. A commit that fails turns the answer into a 500 (the
 * write did not happen, so the retry runs). An answer streamed in several writes is committed
 * without being remembered for replay.
 */
function commitWithTheAnswer(res: Response, commit: (status: number, body: string, replayable: boolean) => Promise<void>): void {
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  const chunks: Buffer[] = [];
  let streamed = false;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  res.write = ((...args: unknown[]) => {
    streamed = true;
    return write(...args);
  }) as Response['write'];
  res.end = ((...args: unknown[]) => {
    const [chunk, encoding] = args;
    if (typeof chunk === 'string') chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
    else if (Buffer.isBuffer(chunk) || chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
    const body = Buffer.concat(chunks).toString('utf8');
    commit(res.statusCode, body, !streamed).then(
      () => end(...args),
      (error: unknown) => {
        (res.req as { log?: Logger }).log?.error({ err: error }, 'idempotency: commit failed');
        if (res.headersSent) return end();
        const failure = JSON.stringify({ code: 'INTERNAL_ERROR', message: 'Internal server error' });
        res.statusCode = 500;
        res.setHeader('content-type', 'application/json; charset=utf-8');
        res.setHeader('content-length', Buffer.byteLength(failure));
        end(failure);
      },
    );
    return res;
  }) as Response['end'];
}

/** Forgets keys past their time (run from a service's timer). */
export async function pruneIdempotencyKeys(em: EntityManager, now: Date): Promise<number> {
  const result = await em.getConnection().execute<{ affectedRows?: number }>('delete from idempotency_keys where expires_at <= ?', [now], 'run');
  return result.affectedRows ?? 0;
}
