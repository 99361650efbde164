import type { MikroORM, PostgreSqlConnection as Connection } from '@mikro-orm/postgresql';
import type { EventEnvelope } from '@academy/contracts';
import { pgArray } from '@academy/db';
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
  /** Batches in flight at once (each claims its own rows). */
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
}

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

type RelaySettings = Required<Omit<RelayOptions, 'orm' | 'broker' | 'listen'>>;

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

/** Claims up to a batch of due rows in one committed statement, hiding them for the lease. */
async function claimDueRows(connection: Connection, leaseMs: number, batchSize: number): Promise<ClaimedRow[]> {
  const rows = await connection.execute<ClaimedRow[]>(
    `update outbox o set available_at = now() + ? * interval '1 millisecond'
     from (select id from outbox where published_at is null and available_at <= now() order by id limit ? for update skip locked) due
     where o.id = due.id
     returning o.id, o.envelope, o.trace_context, o.created_at`,
    [leaseMs, batchSize],
  );
  return rows.sort((a, b) => Number(a.id) - Number(b.id));
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

/**
 * The span of a traced row's trip from the outbox to the broker: a child of the writer's span, from
 * the row's commit (so the time it waited in the outbox shows) to the broker's confirm. Its context
 * is what the message carries as `traceparent`. Rows written outside a trace get none.
 */
function publishSpan(row: ClaimedRow, exchange: string): Span | null {
  if (!row.trace_context) return null;
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

async function markSent(connection: Connection, ids: string[]): Promise<void> {
  // Arrays go as one literal parameter (the driver would expand a JS array into a list).
  await connection.execute(`update outbox set published_at = now() where id = any(?::bigint[])`, [pgArray(ids)], 'run');
}

/** Counts the failed attempt and moves each row's next try back by `retryBaseMs` × 2^attempts, at most `retryMaxMs`. */
async function rescheduleWithBackoff(connection: Connection, failed: { id: string; error: PublishError }[], retryBaseMs: number, retryMaxMs: number): Promise<void> {
  await connection.execute(
    `update outbox o set attempts = o.attempts + 1, last_error = f.error,
       available_at = now() + least(? * power(2, least(o.attempts, 20)), ?) * interval '1 millisecond'
     from json_to_recordset(?::json) as f(id bigint, error text) where o.id = f.id and o.published_at is null`,
    [retryBaseMs, retryMaxMs, JSON.stringify(failed.map((row) => ({ id: row.id, error: row.error.message.slice(0, 500) })))],
    'run',
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

/** Ensures the outbox's notify trigger, then LISTENs for commits; `listening` says whether it does (false: poll only). */
function wakeOnNotify(orm: MikroORM, enabled: boolean, wake: () => void, stopped: () => boolean, log: Logger): { listening: Promise<boolean>; stop(): Promise<void> } {
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
    listener = listenForOutbox({ clientUrl: orm.config.get('clientUrl') as string, channel: OUTBOX_CHANNEL, onNotify: wake, logger: log });
    return listener.firstConnect;
  })();
  return {
    listening,
    async stop() {
      await listening;
      await listener?.stop();
    },
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
 * Publishes pending outbox rows in batches, with publisher confirms and the mandatory flag.
 *
 * A batch is claimed by one committed statement (`FOR UPDATE SKIP LOCKED`, then `available_at` moved
 * a lease ahead), published, then marked sent or rescheduled with backoff: no transaction or
 * connection is held while the broker confirms, and several instances of a service never publish
 * the same row at the same time. A relay that dies mid-batch leaves its rows to be claimed again when
 * the lease ends (consumers' inboxes absorb the duplicate).
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
  let stopped = false;
  let again = false;
  let lastPrune = 0;

  /** Claims a batch, publishes it, marks what was confirmed and reschedules the rest; returns the rows claimed. */
  const publishBatch = async (): Promise<number> => {
    if (!broker.connected) return 0;
    const rows = await claimDueRows(connection(), leaseMs, batchSize);
    if (rows.length === 0) return 0;
    const spans = rows.map((row) => publishSpan(row, broker.exchange));
    const headers = rows.map((row, index) => (spans[index] && carrierOfSpan(spans[index])) || row.trace_context);
    const outcomes = await broker.publishEach(
      rows.map((row) => row.envelope),
      { headers },
    );
    spans.forEach((span, index) => span && endSpan(span, outcomes[index] ?? undefined));
    const { sent, failed } = splitByOutcome(rows, outcomes);
    if (sent.length) await markSent(connection(), sent);
    if (failed.length) {
      await rescheduleWithBackoff(connection(), failed, retryBaseMs, retryMaxMs);
      for (const row of failed) broker.metrics.publishFailed.inc({ reason: row.error.reason });
      log.warn({ failed: failed.length, published: sent.length, reason: failed[0].error.message }, 'outbox rows not published; will retry');
    }
    return rows.length;
  };

  const prune = async () => {
    if (Date.now() - lastPrune < pruneIntervalMs) return;
    lastPrune = Date.now();
    const pruned = await deletePublishedBefore(connection(), retentionMs);
    if (pruned) log.debug({ pruned }, 'published outbox rows pruned');
  };

  const workers = new Set<Promise<void>>();

  // A worker publishes batch after batch while rows keep coming (a full batch, or a wake-up meanwhile).
  const worker = async () => {
    try {
      while (!stopped) {
        again = false;
        const published = await publishBatch();
        if (published < batchSize && !again) break;
      }
      await prune();
    } catch (error) {
      log.warn({ err: error }, 'outbox relay pass failed');
    }
  };

  // Up to `concurrency` batches in flight: a commit arriving while one batch waits for its confirms is
  // claimed by another worker instead of waiting for that batch to finish.
  const tick = () => {
    if (stopped) return;
    if (workers.size >= concurrency) {
      again = true;
      return;
    }
    const running = worker().finally(() => workers.delete(running));
    workers.add(running);
  };

  const stats = () => unsentStats(connection());
  broker.metrics.outboxSources.add(stats);
  wakeOnLocalCommits(orm, tick, () => stopped);
  const notifications = wakeOnNotify(orm, options.listen !== false, tick, () => stopped, log);
  const timer = setInterval(tick, intervalMs);
  broker.on('connected', tick);
  tick();
  return {
    nudge: tick,
    listening: notifications.listening,
    stats,
    readiness: () => outboxReadiness(stats, staleAfterMs),
    async stop() {
      stopped = true;
      clearInterval(timer);
      broker.off('connected', tick);
      broker.metrics.outboxSources.delete(stats);
      await notifications.stop();
      await Promise.all(workers);
    },
  };
}
