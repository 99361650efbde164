import type { MikroORM, PostgreSqlConnection as Connection } from '@mikro-orm/postgresql';
import type pg from 'pg';
import type { EventEnvelope } from '@academy/contracts';
import { carrierOfSpan, contextFromCarrier, endSpan, ReadinessError, SpanKind, startSpan, type Logger, type ReadinessCheck, type Span, type TraceCarrier } from '@academy/kit';
import type { Broker, PublishError } from './broker.ts';
import { OutboxMessage } from './entities.ts';
import type { OutboxStats } from './metrics.ts';
import { ensureOutboxNotify, listenForOutbox, OUTBOX_CHANNEL, type OutboxListener } from './notify.ts';

export interface RelayOptions {
  orm: MikroORM;
  broker: Broker;
  /** Rows claimed and published per batch (confirms pipelined within the batch). */
  batchSize?: number;
  /** Batches written to the broker and not yet settled: `batchSize` × `concurrency` rows at most wait for their confirms and marks. */
  concurrency?: number;
  /** Safety-net poll: rows whose retry time came, or commits whose notification was missed. */
  intervalMs?: number;
  /**
   * How long claimed rows are hidden from other claims while their batch is published. Longer than
   * the broker's confirm timeout (default: that timeout + 15 s), so a row is published again only
   * when its relay died or could not mark it.
   */
  leaseMs?: number;
  /** Wake on PostgreSQL NOTIFY from the outbox's insert trigger (installed if missing). Default true. */
  listen?: boolean;
  /** Published rows older than this are deleted. */
  retentionMs?: number;
  /** How often pruning runs. */
  pruneIntervalMs?: number;
  /**
   * Backoff of a failed row: base doubles per attempt up to the cap. Every failure gets the same short
   * cap: with the catch-all `<exchange>.unrouted` in place even a returned message (a bound quorum queue
   * still electing its leader after a broker restart) is a passing broker problem, not a missing consumer.
   */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** `/readyz` reports the outbox degraded when its oldest unsent row is older than this. */
  staleAfterMs?: number;
  /**
   * Let the relay's own connection plan sequential scans of the outbox, as before (default false; the
   * environment's `OUTBOX_RELAY_SEQ_SCANS=on` sets it too, for the bench's before/after). See `RELAY_SESSION_SQL`.
   */
  seqScans?: boolean;
}

/** The outbox's unpublished rows in id order (each service's migration `…_outbox_unpublished_index`): the claim's index. */
export const OUTBOX_UNPUBLISHED_INDEX = 'outbox_unpublished_index';

/**
 * The relay's own connection plans no sequential scan once the outbox has its claim's index (issue 32).
 * The claim and the mark are prepared, and PostgreSQL keeps a prepared statement's generic plan until
 * the table's statistics change: planned on an outbox that was empty (a new database, or one analysed
 * before its first events), both were a sequential scan, kept until the first autoanalyze, reading every
 * heap page of the outbox (published rows kept for `retentionMs`, dead versions) at every claim and mark:
 * 2.6–5.7 ms of PostgreSQL CPU a review in bench:blocks' first minute. Sequential scans off alone is
 * worse: the claim then walks the primary key in id order through every published row (9.9 million
 * entries read in 10 s of bench:blocks). With the partial index the claim reads only unpublished rows'
 * entries in id order and stops at its batch, whatever the statistics say; without it (a database whose
 * migrations have not run) the setting stays as it was. The relay's statements are the only ones on that
 * connection.
 */
export const RELAY_SESSION_SQL = [
  `select set_config('enable_seqscan', 'off', false) from pg_index i join pg_class c on c.oid = i.indexrelid
    where c.relname = '${OUTBOX_UNPUBLISHED_INDEX}' and i.indrelid = 'outbox'::regclass and i.indisvalid`,
] as const;

export interface OutboxRelay {
  /** Publish now rather than at the next tick. */
  nudge(): void;
  /** Resolves once the relay listens for outbox commits (true), or when it will not (false: poll only). */
  readonly listening: Promise<boolean>;
  /** Unsent rows and the age of the oldest (also the `messaging_outbox_*` gauges). */
  stats(): Promise<OutboxStats>;
  /** Non-critical `outbox` check: details {unsent, oldestUnsentSeconds}; degraded past `staleAfterMs`. */
  readiness(): ReadinessCheck;
  stop(): Promise<void>;
}

interface ClaimedRow {
  id: string;
  envelope: EventEnvelope;
  trace_context: TraceCarrier | null;
  created_at: Date;
}

type RelaySettings = Required<Omit<RelayOptions, 'orm' | 'broker' | 'listen' | 'seqScans'>>;

function settingsOf(options: RelayOptions): RelaySettings {
  return {
    batchSize: options.batchSize ?? 500,
    concurrency: options.concurrency ?? 4,
    intervalMs: options.intervalMs ?? 250,
    leaseMs: options.leaseMs ?? options.broker.confirmTimeoutMs + 15_000,
    retentionMs: options.retentionMs ?? 7 * 24 * 3600 * 1000,
    pruneIntervalMs: options.pruneIntervalMs ?? 60_000,
    retryBaseMs: options.retryBaseMs ?? 250,
    retryMaxMs: options.retryMaxMs ?? 5_000,
    staleAfterMs: options.staleAfterMs ?? 60_000,
  };
}

/**
 * Runs one statement (`$n` placeholders) and returns its rows. A named one (the claim and the mark, run
 * at every wake-up) is a prepared statement of its connection: parsed and planned once, not each time.
 */
type Run = <R>(sql: string, values: unknown[], name?: string) => Promise<R[]>;

/** A snapshot as `pg_current_snapshot()` writes it (`xmin:xmax:xip,…`): which transactions' commits it saw. */
interface Snapshot {
  xmin: bigint;
  xmax: bigint;
  inProgress: Set<bigint>;
}

function parseSnapshot(text: string): Snapshot {
  const [xmin, xmax, xip] = text.split(':');
  return { xmin: BigInt(xmin!), xmax: BigInt(xmax!), inProgress: new Set(xip ? xip.split(',').map(BigInt) : []) };
}

/** Whether `snapshot` saw the commit of transaction `xid` (a committed one: notifications are sent at commit). */
function sawCommit(snapshot: Snapshot | null, xid: bigint): boolean {
  return snapshot !== null && (xid < snapshot.xmin || (xid < snapshot.xmax && !snapshot.inProgress.has(xid)));
}

/** A notification's transaction id (the trigger's payload), or null for one without (an older trigger, a reconnection). */
function xidOf(payload: string | undefined): bigint | null {
  return payload && /^\d{1,20}$/.test(payload) ? BigInt(payload) : null;
}

/**
 * Claims up to a batch of due rows in one committed statement, hiding them for the lease; also returns
 * the statement's snapshot, whose commits the claim saw (so a notification of one of them needs no pass).
 * Due is against the clock read once after that snapshot (`(select clock_timestamp())`, an init plan),
 * not the statement's start (`now()`): a row committed between the two was visible but, stamped with
 * its writer's later `now()`, not yet due, and its notification, skipped as seen, would then have waited
 * for the poll. A row stamped by a clock ahead of the database's (`recordEvent` stamps it in the service)
 * waits for the poll when the skew outruns the claim.
 */
async function claimDueRows(run: Run, leaseMs: number, batchSize: number): Promise<{ rows: ClaimedRow[]; snapshot: Snapshot }> {
  const result = await run<ClaimedRow & { snapshot: string }>(
    `with claimed as (
       update outbox o set available_at = now() + $1 * interval '1 millisecond'
       where o.id = any(array(select id from outbox where published_at is null and available_at <= (select clock_timestamp()) order by id limit $2 for update skip locked))
       returning o.id, o.envelope, o.trace_context, o.created_at)
     select claimed.*, s.snapshot from (select pg_current_snapshot()::text as snapshot) s left join claimed on true`,
    [leaseMs, batchSize],
    'academy_outbox_claim',
  );
  const rows = result.filter((row) => row.id !== null).map(({ snapshot: _, ...row }) => row as ClaimedRow);
  return { rows: rows.sort((a, b) => Number(a.id) - Number(b.id)), snapshot: parseSnapshot(result[0]!.snapshot) };
}

/** The claimed rows the broker confirmed, and those it did not with the reason. */
function splitByOutcome(rows: ClaimedRow[], outcomes: (PublishError | null)[]): { sent: string[]; failed: { id: string; error: PublishError }[] } {
  const sent: string[] = [];
  const failed: { id: string; error: PublishError }[] = [];
  rows.forEach((row, index) => {
    const outcome = outcomes[index];
    if (outcome) failed.push({ id: row.id, error: outcome });
    else sent.push(row.id);
  });
  return { sent, failed };
}

/** Whether a stored `traceparent` says its trace is recorded (the sampled flag, bit 0 of its last field). */
function sampled(carrier: TraceCarrier): boolean {
  const flags = /^[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-([\da-f]{2})$/.exec(carrier.traceparent ?? '')?.[1];
  return flags !== undefined && (parseInt(flags, 16) & 1) === 1;
}

/**
 * The span of a traced row's trip from the outbox to the broker: a child of the writer's span, from
 * the row's commit (so the time it waited in the outbox shows) to the broker's confirm. Its context
 * is what the message carries as `traceparent`. Rows written outside a trace get none, nor rows of a
 * trace the sampler left out (it would record nothing): their message carries the writer's context
 * as stored, so the consumer still knows the trace and that it is not recorded.
 */
function publishSpan(row: ClaimedRow, exchange: string): Span | null {
  if (!row.trace_context || !sampled(row.trace_context)) return null;
  const now = Date.now();
  const createdAt = Math.min(new Date(row.created_at).getTime(), now);
  return startSpan(`publish ${row.envelope.type}`, {
    kind: SpanKind.PRODUCER,
    parent: contextFromCarrier(row.trace_context),
    startTime: new Date(createdAt),
    attributes: {
      'messaging.system': 'rabbitmq',
      'messaging.operation.type': 'publish',
      'messaging.destination.name': exchange,
      'messaging.rabbitmq.destination.routing_key': row.envelope.type,
      'messaging.message.id': row.envelope.id,
      'messaging.message.conversation_id': row.envelope.correlationId,
      'academy.outbox.wait_ms': now - createdAt,
    },
  });
}

async function markSent(run: Run, ids: string[]): Promise<void> {
  await run(`update outbox set published_at = now() where id = any($1::bigint[])`, [ids], 'academy_outbox_mark_sent');
}

/** Counts the failed attempt and moves each row's next try back by `retryBaseMs` × 2^attempts, at most `retryMaxMs`. */
async function rescheduleWithBackoff(run: Run, failed: { id: string; error: PublishError }[], retryBaseMs: number, retryMaxMs: number): Promise<void> {
  await run(
    `update outbox o set attempts = o.attempts + 1, last_error = f.error,
       available_at = now() + least($1 * power(2, least(o.attempts, 20)), $2) * interval '1 millisecond'
     from json_to_recordset($3::json) as f(id bigint, error text) where o.id = f.id and o.published_at is null`,
    [retryBaseMs, retryMaxMs, JSON.stringify(failed.map((row) => ({ id: row.id, error: row.error.message.slice(0, 500) })))],
  );
}

/** Deletes up to 10,000 rows published more than `retentionMs` ago; returns how many. */
async function deletePublishedBefore(connection: Connection, retentionMs: number): Promise<number> {
  const result = await connection.execute<{ affectedRows: number }>(
    `delete from outbox where id in (select id from outbox where published_at < now() - ? * interval '1 millisecond' limit 10000)`,
    [retentionMs],
    'run',
  );
  return result.affectedRows;
}

async function unsentStats(connection: Connection): Promise<OutboxStats> {
  const [row] = await connection.execute<{ unsent: number; oldest: number }[]>(
    `select count(*)::int as unsent, coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as oldest from outbox where published_at is null`,
  );
  return { unsent: row?.unsent ?? 0, oldestUnsentSeconds: Math.max(0, Math.round((row?.oldest ?? 0) * 1000) / 1000) };
}

/**
 * Commits through `recordEvent` in this process wake the relay directly too: no wait for the
 * notification's round trip through PostgreSQL (tens of ms on a busy machine), and no dependence on it.
 */
function wakeOnLocalCommits(orm: MikroORM, wake: () => void, stopped: () => boolean): void {
  let outboxWritten = false;
  orm.em.getEventManager().registerSubscriber({
    getSubscribedEntities: () => [OutboxMessage],
    afterCreate: () => {
      outboxWritten = true;
    },
    afterTransactionCommit: () => {
      if (!outboxWritten || stopped()) return;
      outboxWritten = false;
      wake();
    },
  });
}

/**
 * Ensures the outbox's notify trigger, then LISTENs for commits; `listening` says whether it does (false: poll only).
 * `client()` is that connection while it is up.
 */
function wakeOnNotify(
  orm: MikroORM,
  enabled: boolean,
  wake: (payload?: string) => void,
  stopped: () => boolean,
  log: Logger,
  sessionSql: readonly string[],
): { listening: Promise<boolean>; client(): pg.Client | null; stop(): Promise<void> } {
  let listener: OutboxListener | null = null;
  const listening = (async (): Promise<boolean> => {
    if (!enabled) return false;
    try {
      await ensureOutboxNotify(orm);
    } catch (error) {
      log.warn({ err: error }, 'could not install the outbox notify trigger: the relay polls only');
      return false;
    }
    if (stopped()) return false;
    listener = listenForOutbox({ clientUrl: orm.config.get('clientUrl') as string, channel: OUTBOX_CHANNEL, onNotify: wake, logger: log, sessionSql });
    return listener.firstConnect;
  })();
  return {
    listening,
    client: () => listener?.client ?? null,
    async stop() {
      await listening;
      await listener?.stop();
    },
  };
}

/**
 * The relay's claims and marks run on its LISTEN connection while it is up: a connection of its own,
 * so a pool that requests and handlers keep busy never holds up a commit's publication. Without it
 * (poll only, or while it reconnects) they take a connection of the pool.
 */
function relayStatements(orm: MikroORM, own: () => pg.Client | null): Run {
  return async <R>(sql: string, values: unknown[], name?: string) => {
    const client = own() ?? ((await (orm.em.getConnection() as Connection).getNativeClient()) as unknown as pg.Pool);
    return (await client.query({ text: sql, values, name })).rows as R[];
  };
}

/** Non-critical `outbox` check: degraded when the oldest unsent row is older than `staleAfterMs`. */
function outboxReadiness(stats: () => Promise<OutboxStats>, staleAfterMs: number): ReadinessCheck {
  return {
    name: 'outbox',
    critical: false,
    check: async () => {
      const current = await stats();
      if (current.oldestUnsentSeconds * 1000 > staleAfterMs) {
        throw new ReadinessError(`the oldest unsent event is ${Math.round(current.oldestUnsentSeconds)} s old`, { ...current });
      }
      return { ...current };
    },
  };
}

/**
 * Runs `pass` again and again while it is wanted: `want()` during a pass asks for one more after it,
 * never for a second one at the same time. Passes are serial, wake-ups coalesce.
 */
function serialPasses(pass: () => Promise<boolean>, onError: (error: unknown) => void): { want(): void; idle(): Promise<void> } {
  let wanted = false;
  let running: Promise<void> | null = null;
  const want = () => {
    wanted = true;
    if (running) return;
    running = (async () => {
      while (wanted) {
        wanted = false;
        // A pass that could not finish its work (a full batch) asks for the next one itself.
        if (await pass()) wanted = true;
      }
    })()
      .catch(onError)
      .finally(() => {
        running = null;
        if (wanted) want();
      });
  };
  return { want, idle: async () => void (await running) };
}

/**
 * Publishes pending outbox rows in batches, with publisher confirms and the mandatory flag.
 *
 * One claimer claims due rows by a committed statement (`FOR UPDATE SKIP LOCKED`, then `available_at`
 * moved a lease ahead) and writes them to the broker at once; it does not wait for their confirms
 * before it claims what was committed meanwhile, so a commit is published within a claim's round trip
 * whatever the broker's confirm latency. Confirmed rows are marked sent, and failed ones rescheduled
 * with backoff, by statements of their own; rows written but not yet marked are bounded
 * (`batchSize` × `concurrency`). No transaction or connection is held while the broker confirms, and
 * several instances of a service never publish the same row at the same time. A relay that dies
 * between claim and mark leaves its rows to be claimed again when the lease ends (consumers' inboxes
 * absorb the duplicate).
 *
 * The relay wakes on `NOTIFY academy_outbox`, sent by a statement trigger on the outbox at every
 * commit that inserted rows (through `recordEvent` or raw SQL, in any instance); the poll remains as
 * the safety net and for retries.
 */
export function startOutboxRelay(options: RelayOptions): OutboxRelay {
  const { orm, broker } = options;
  const { batchSize, concurrency, intervalMs, leaseMs, retentionMs, pruneIntervalMs, retryBaseMs, retryMaxMs, staleAfterMs } = settingsOf(options);
  const log: Logger = broker.logger.child({ component: 'outbox-relay' });
  const connection = () => orm.em.fork().getConnection();
  const maxUnsettled = batchSize * concurrency;
  let stopped = false;
  /** Batches written to the broker whose rows are not marked (sent or rescheduled) yet, and their row count. */
  const unsettled = new Set<Promise<void>>();
  let unsettledRows = 0;
  /** Ids the broker confirmed, waiting for the next mark statement. */
  let confirmed: string[] = [];
  const settledByMark: (() => void)[] = [];

  const marks = serialPasses(
    async () => {
      const ids = confirmed;
      const settle = settledByMark.splice(0);
      confirmed = [];
      try {
        if (ids.length) await markSent(run, ids);
      } finally {
        // Unmarked (the database away): their lease ends and they are published again, the inbox absorbs it.
        for (const done of settle) done();
      }
      return false;
    },
    (error) => log.warn({ err: error }, 'outbox rows published but not marked sent; they will be published again after their lease'),
  );

  /** Waits for the broker's answer on each row, then has the confirmed marked sent and reschedules the others. */
  const settle = async (rows: ClaimedRow[], spans: (Span | null)[], publishing: Promise<(PublishError | null)[]>): Promise<void> => {
    const outcomes = await publishing;
    spans.forEach((span, index) => span && endSpan(span, outcomes[index] ?? undefined));
    const { sent, failed } = splitByOutcome(rows, outcomes);
    const marked = sent.length ? new Promise<void>((resolve) => settledByMark.push(resolve)) : null;
    if (marked) {
      confirmed.push(...sent);
      marks.want();
    }
    if (failed.length) {
      await rescheduleWithBackoff(run, failed, retryBaseMs, retryMaxMs);
      for (const row of failed) broker.metrics.publishFailed.inc({ reason: row.error.reason });
      log.warn({ failed: failed.length, published: sent.length, reason: failed[0].error.message }, 'outbox rows not published; will retry');
    }
    await marked;
  };

  /** The snapshot of the last claim: the commits it saw. */
  let lastClaimSaw: Snapshot | null = null;
  /** Why the next pass runs: a wake that always claims (a nudge, the poll, a full batch…), and the transactions notified since the last pass. */
  let wokenBy: { always: boolean; notified: bigint[] } = { always: false, notified: [] };

  /** Claims due rows (no more than may be unsettled) and writes them to the broker; true when it claimed a full batch. */
  const claimAndPublish = async (): Promise<boolean> => {
    if (stopped || !broker.connected) return false;
    while (unsettledRows >= maxUnsettled) await Promise.race(unsettled);
    const limit = Math.min(batchSize, maxUnsettled - unsettledRows);
    const { rows, snapshot } = await claimDueRows(run, leaseMs, limit);
    lastClaimSaw = snapshot;
    if (rows.length === 0) return false;
    const spans = rows.map((row) => publishSpan(row, broker.exchange));
    const headers = rows.map((row, index) => (spans[index] && carrierOfSpan(spans[index])) || row.trace_context);
    // Written now; the confirms are awaited by the batch's own settling, not by the next claim.
    const publishing = broker.publishEach(
      rows.map((row) => row.envelope),
      { headers },
    );
    unsettledRows += rows.length;
    const batch: Promise<void> = settle(rows, spans, publishing)
      .catch((error: unknown) => log.warn({ err: error }, 'outbox batch not settled; its rows are published again after their lease'))
      .finally(() => {
        unsettled.delete(batch);
        unsettledRows -= rows.length;
      });
    unsettled.add(batch);
    return rows.length === limit;
  };

  /**
   * A pass claims unless every wake since the last one was a notification of a commit the last claim
   * already saw: a lone commit in this process wakes the relay twice (the in-process wake at once, its
   * NOTIFY a moment later), and the second pass would claim nothing.
   */
  const pass = async (): Promise<boolean> => {
    const why = wokenBy;
    wokenBy = { always: false, notified: [] };
    const claimed = lastClaimSaw;
    if (!why.always && why.notified.every((xid) => sawCommit(claimed, xid))) return false;
    const full = await claimAndPublish();
    if (full) wokenBy.always = true;
    return full;
  };
  const claims = serialPasses(pass, (error) => log.warn({ err: error }, 'outbox relay pass failed'));
  const tick = () => {
    if (stopped) return;
    wokenBy.always = true;
    claims.want();
  };
  const onNotify = (payload?: string) => {
    const xid = xidOf(payload);
    if (xid === null) return tick();
    if (stopped) return;
    wokenBy.notified.push(xid);
    claims.want();
  };
  const seqScans = options.seqScans ?? process.env.OUTBOX_RELAY_SEQ_SCANS === 'on';
  const notifications = wakeOnNotify(orm, options.listen !== false, onNotify, () => stopped, log, seqScans ? [] : RELAY_SESSION_SQL);
  const run = relayStatements(orm, notifications.client);
  // Apart from the claims, so that deleting old rows never holds up a commit's publication.
  const prunes = serialPasses(
    async () => {
      const pruned = await deletePublishedBefore(connection(), retentionMs);
      if (pruned) log.debug({ pruned }, 'published outbox rows pruned');
      return false;
    },
    (error) => log.warn({ err: error }, 'outbox prune failed'),
  );
  const prune = () => {
    if (!stopped) prunes.want();
  };

  const stats = () => unsentStats(connection());
  broker.metrics.outboxSources.add(stats);
  wakeOnLocalCommits(orm, tick, () => stopped);
  const timer = setInterval(tick, intervalMs);
  const pruneTimer = setInterval(prune, pruneIntervalMs);
  broker.on('connected', tick);
  tick();
  prune();
  return {
    nudge: tick,
    listening: notifications.listening,
    stats,
    readiness: () => outboxReadiness(stats, staleAfterMs),
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearInterval(pruneTimer);
      broker.off('connected', tick);
      broker.metrics.outboxSources.delete(stats);
      await claims.idle();
      await Promise.all(unsettled);
      await marks.idle();
      await prunes.idle();
      // Last: the batches above may still be marking on it.
      await notifications.stop();
    },
  };
}
