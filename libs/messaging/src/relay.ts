import type { MikroORM } from '@mikro-orm/postgresql';
import type { EventEnvelope } from '@academy/contracts';
import type { Broker, PublishError } from './broker.ts';
import { OutboxMessage } from './entities.ts';

export interface RelayOptions {
  orm: MikroORM;
  broker: Broker;
  /** Rows claimed and published per batch (confirms pipelined within the batch). */
  batchSize?: number;
  /** Batches in flight at once (each claims its own rows with SKIP LOCKED). */
  concurrency?: number;
  /** Poll interval: rows committed by other instances, or when no nudge came. */
  intervalMs?: number;
  /** Published rows older than this are deleted. */
  retentionMs?: number;
  /** How often pruning runs. */
  pruneIntervalMs?: number;
  /** Backoff of a failed row: base doubles per attempt up to the cap (unroutable rows use a longer cap). */
  retryBaseMs?: number;
  retryMaxMs?: number;
  unroutableRetryMaxMs?: number;
}

export interface OutboxRelay {
  /** Publish now rather than at the next tick (called by itself after a commit that wrote outbox rows). */
  nudge(): void;
  stop(): Promise<void>;
}

interface ClaimedRow {
  id: string;
  envelope: EventEnvelope;
}

/**
 * Publishes pending outbox rows in batches, with publisher confirms and the mandatory flag. Rows are
 * claimed with `FOR UPDATE SKIP LOCKED` inside a transaction that also marks them sent, so several
 * instances of a service never publish the same row at the same time; a failed row is retried with
 * backoff. A commit in this process that wrote outbox rows nudges the relay (no wait for the poll).
 */
export function startOutboxRelay(options: RelayOptions): OutboxRelay {
  const { orm, broker } = options;
  const batchSize = options.batchSize ?? 500;
  const concurrency = options.concurrency ?? 4;
  const intervalMs = options.intervalMs ?? 250;
  const retentionMs = options.retentionMs ?? 7 * 24 * 3600 * 1000;
  const pruneIntervalMs = options.pruneIntervalMs ?? 60_000;
  const retryBaseMs = options.retryBaseMs ?? 250;
  const retryMaxMs = options.retryMaxMs ?? 5_000;
  const unroutableRetryMaxMs = options.unroutableRetryMaxMs ?? 300_000;
  const log = broker.logger.child({ component: 'outbox-relay' });
  let stopped = false;
  let again = false;
  let lastPrune = 0;
  let outboxWritten = false;

  const publishBatch = async (): Promise<number> => {
    if (!broker.connected) return 0;
    return orm.em.fork().transactional(async (tx) => {
      const connection = tx.getConnection();
      const trx = tx.getTransactionContext();
      const rows = await connection.execute<ClaimedRow[]>(
        `select id, envelope from outbox where published_at is null and available_at <= now() order by id limit ? for update skip locked`,
        [batchSize],
        'all',
        trx,
      );
      if (rows.length === 0) return 0;
      const outcomes = await broker.publishEach(rows.map((row) => row.envelope));
      const sent: string[] = [];
      const failed: { id: string; error: PublishError }[] = [];
      rows.forEach((row, index) => {
        const outcome = outcomes[index];
        if (outcome) failed.push({ id: row.id, error: outcome });
        else sent.push(row.id);
      });
      // Arrays go as one literal parameter (the driver would expand a JS array into a list).
      if (sent.length) await connection.execute(`update outbox set published_at = now() where id = any(?::bigint[])`, [`{${sent.join(',')}}`], 'run', trx);
      if (failed.length) {
        await connection.execute(
          `update outbox o set attempts = o.attempts + 1, last_error = f.error,
             available_at = now() + least(? * power(2, least(o.attempts, 20)), f.max_ms) * interval '1 millisecond'
           from json_to_recordset(?::json) as f(id bigint, error text, max_ms int) where o.id = f.id`,
          [
            retryBaseMs,
            JSON.stringify(
              failed.map((row) => ({ id: row.id, error: row.error.message.slice(0, 500), max_ms: row.error.reason === 'unroutable' ? unroutableRetryMaxMs : retryMaxMs })),
            ),
          ],
          'run',
          trx,
        );
        for (const row of failed) broker.metrics.publishFailed.inc({ reason: row.error.reason });
        log.warn({ failed: failed.length, published: sent.length, reason: failed[0].error.message }, 'outbox rows not published; will retry');
      }
      return rows.length;
    });
  };

  const prune = async () => {
    if (Date.now() - lastPrune < pruneIntervalMs) return;
    lastPrune = Date.now();
    const result = await orm.em
      .fork()
      .getConnection()
      .execute<{ affectedRows: number }>(
        `delete from outbox where id in (select id from outbox where published_at < now() - ? * interval '1 millisecond' limit 10000)`,
        [retentionMs],
        'run',
      );
    if (result.affectedRows) log.debug({ pruned: result.affectedRows }, 'published outbox rows pruned');
  };

  const workers = new Set<Promise<void>>();

  // A worker publishes batch after batch while rows keep coming (a full batch, or a nudge meanwhile).
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
  // claimed by another worker (SKIP LOCKED) instead of waiting for that batch to finish.
  const tick = () => {
    if (stopped) return;
    if (workers.size >= concurrency) {
      again = true;
      return;
    }
    const running = worker().finally(() => workers.delete(running));
    workers.add(running);
  };

  const backlog = async () => {
    const [row] = await orm.em.fork().getConnection().execute<{ count: string }[]>(`select count(*) as count from outbox where published_at is null`);
    return Number(row?.count ?? 0);
  };
  broker.metrics.backlogSources.add(backlog);

  // Commits that wrote outbox rows nudge the relay, so latency does not wait for the poll.
  orm.em.getEventManager().registerSubscriber({
    getSubscribedEntities: () => [OutboxMessage],
    afterCreate: () => {
      outboxWritten = true;
    },
    afterTransactionCommit: () => {
      if (!outboxWritten || stopped) return;
      outboxWritten = false;
      tick();
    },
  });

  const timer = setInterval(tick, intervalMs);
  broker.on('connected', tick);
  tick();
  return {
    nudge: tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      broker.off('connected', tick);
      broker.metrics.backlogSources.delete(backlog);
      await Promise.all(workers);
    },
  };
}
