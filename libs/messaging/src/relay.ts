import type { MikroORM } from '@mikro-orm/postgresql';
import type { EventEnvelope } from '@academy/contracts';
import type { Broker } from './broker.ts';

export interface RelayOptions {
  orm: MikroORM;
  broker: Broker;
  batchSize?: number;
  intervalMs?: number;
  /** Published rows older than this are deleted. */
  retentionMs?: number;
}

export interface OutboxRelay {
  /** Publish now rather than at the next tick (call after committing events). */
  nudge(): void;
  stop(): Promise<void>;
}

/**
 * Publishes pending outbox rows in batches. Rows are claimed with `FOR UPDATE SKIP LOCKED`, so
 * several instances of a service never publish the same row at the same time.
 */
export function startOutboxRelay(options: RelayOptions): OutboxRelay {
  const { orm, broker } = options;
  const batchSize = options.batchSize ?? 500;
  const intervalMs = options.intervalMs ?? 250;
  const retentionMs = options.retentionMs ?? 7 * 24 * 3600 * 1000;
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let lastPrune = 0;

  const publishBatch = async (): Promise<number> => {
    if (!broker.connected) return 0;
    const em = orm.em.fork();
    return em.transactional(async (tx) => {
      const rows: { id: string; envelope: EventEnvelope }[] = await tx.getConnection().execute(
        `select id, envelope from outbox where published_at is null and available_at <= now() order by id limit ? for update skip locked`,
        [batchSize],
        'all',
        tx.getTransactionContext(),
      );
      if (rows.length === 0) return 0;
      const ids = rows.map((row) => row.id);
      try {
        await broker.publish(rows.map((row) => row.envelope));
      } catch (error) {
        await tx.getConnection().execute(
          `update outbox set attempts = attempts + 1, last_error = ?, available_at = now() + least(attempts + 1, 30) * interval '1 second' where id = any(?::bigint[])`,
          [(error as Error).message.slice(0, 500), ids],
          'run',
          tx.getTransactionContext(),
        );
        broker.logger.warn({ err: error, count: rows.length }, 'outbox publish failed; will retry');
        return 0;
      }
      await tx.getConnection().execute(`update outbox set published_at = now() where id = any(?::bigint[])`, [ids], 'run', tx.getTransactionContext());
      return rows.length;
    });
  };

  const prune = async () => {
    if (Date.now() - lastPrune < 60_000) return;
    lastPrune = Date.now();
    await orm.em.fork().getConnection().execute(`delete from outbox where published_at < now() - ? * interval '1 millisecond'`, [retentionMs]);
  };

  const drain = async () => {
    do {
      again = false;
      try {
        while (!stopped && (await publishBatch()) === batchSize);
        await prune();
      } catch (error) {
        broker.logger.warn({ err: error }, 'outbox relay pass failed');
      }
    } while (again && !stopped);
  };

  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain().finally(() => {
      running = null;
    });
  };

  const timer = setInterval(tick, intervalMs);
  broker.on('connected', tick);
  tick();
  return {
    nudge: tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      broker.off('connected', tick);
      await running;
    },
  };
}
