import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Counters of the event backbone, registered once per registry (the service's `ctx.metrics.registry`). */
export interface MessagingMetrics {
  registry: Registry;
  published: Counter<'type'>;
  publishFailed: Counter<'reason'>;
  consumed: Counter<'queue' | 'type' | 'outcome'>;
  retried: Counter<'queue'>;
  deadLettered: Counter<'queue' | 'reason'>;
  handlerDuration: Histogram<'queue'>;
  /** From the relay's publish (or a DLQ replay) to the handler's commit, retries included. */
  deliveryDelay: Histogram<'queue'>;
  /** Read at scrape time by `messaging_outbox_backlog` (summed) and `messaging_outbox_oldest_unsent_seconds` (max): one per relay. */
  outboxSources: Set<() => Promise<OutboxStats>>;
  /** Read at scrape time by `messaging_unrouted_depth`: one per broker (they all see the same queue). */
  unroutedSources: Set<() => Promise<number | null>>;
  /** Read at scrape time by `messaging_dlq_depth{queue}`: one per consumer (replicas of a queue report the same depth). */
  dlqSources: Set<DlqSource>;
}

export interface DlqSource {
  queue: string;
  /** Messages in `<queue>.dlq`, or null while the broker is away. */
  depth(): Promise<number | null>;
}

export interface OutboxStats {
  /** Rows not yet published. */
  unsent: number;
  /** Age of the oldest of them, 0 when there is none. */
  oldestUnsentSeconds: number;
}

const byRegistry = new WeakMap<Registry, MessagingMetrics>();

export function messagingMetrics(registry: Registry = new Registry()): MessagingMetrics {
  const existing = byRegistry.get(registry);
  if (existing) return existing;
  const registers = [registry];
  const outboxSources = new Set<() => Promise<OutboxStats>>();
  const unroutedSources = new Set<() => Promise<number | null>>();
  const dlqSources = new Set<DlqSource>();
  const metrics: MessagingMetrics = {
    registry,
    published: new Counter({ name: 'messaging_published_total', help: 'Events published and confirmed by the broker, by type', labelNames: ['type'], registers }),
    publishFailed: new Counter({ name: 'messaging_publish_failed_total', help: 'Outbox rows whose publication failed (will be retried), by reason', labelNames: ['reason'], registers }),
    consumed: new Counter({
      name: 'messaging_consumed_total',
      help: 'Messages settled by consumers, by queue, type and outcome (handled, duplicate, retried, dead_lettered, retired: a retired twin version dropped)',
      labelNames: ['queue', 'type', 'outcome'],
      registers,
    }),
    retried: new Counter({ name: 'messaging_retried_total', help: 'Failed messages sent to a retry queue, by queue', labelNames: ['queue'], registers }),
    deadLettered: new Counter({ name: 'messaging_dead_lettered_total', help: 'Messages parked in a DLQ, by queue and reason (invalid, unsupported_version, exhausted)', labelNames: ['queue', 'reason'], registers }),
    handlerDuration: new Histogram({
      name: 'messaging_handler_duration_seconds',
      help: 'Handler transaction time (handler and inbox insert), by queue',
      labelNames: ['queue'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    }),
    deliveryDelay: new Histogram({
      name: 'messaging_delivery_delay_seconds',
      help: "From the relay's publish (or a DLQ replay) to the handler's commit, retries included, by queue",
      labelNames: ['queue'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers,
    }),
    outboxSources,
    unroutedSources,
    dlqSources,
  };
  // Both outbox gauges come from one query per relay and scrape (the first gauge collected starts it).
  let pendingStats: Promise<OutboxStats[]> | null = null;
  const outboxStats = () => {
    pendingStats ??= Promise.all([...outboxSources].map((source) => source().catch(() => ({ unsent: 0, oldestUnsentSeconds: 0 })))).finally(() => {
      setImmediate(() => (pendingStats = null));
    });
    return pendingStats;
  };
  new Gauge({
    name: 'messaging_outbox_backlog',
    help: 'Outbox rows not yet published',
    registers,
    async collect() {
      this.set((await outboxStats()).reduce((sum, stats) => sum + stats.unsent, 0));
    },
  });
  new Gauge({
    name: 'messaging_outbox_oldest_unsent_seconds',
    help: 'Age of the oldest outbox row not yet published (0 when none): above a few seconds, the broker is unreachable or refusing',
    registers,
    async collect() {
      this.set(Math.max(0, ...(await outboxStats()).map((stats) => stats.oldestUnsentSeconds)));
    },
  });
  new Gauge({
    name: 'messaging_unrouted_depth',
    help: 'Events no queue is bound for, kept in the catch-all queue <exchange>.unrouted (bounded by length and age)',
    registers,
    async collect() {
      const depths = await Promise.all([...unroutedSources].map((source) => source().catch(() => null)));
      const known = depths.filter((depth): depth is number => depth !== null);
      if (known.length) this.set(Math.max(...known));
    },
  });
  new Gauge({
    name: 'messaging_dlq_depth',
    help: 'Messages parked in <queue>.dlq, by queue (npm run dlq -- list <queue>); absent while the broker is away',
    labelNames: ['queue'],
    registers,
    async collect() {
      const depths = await Promise.all([...dlqSources].map(async (source) => ({ queue: source.queue, depth: await source.depth().catch(() => null) })));
      this.reset();
      for (const { queue, depth } of depths) if (depth !== null) this.set({ queue }, depth);
    },
  });
  byRegistry.set(registry, metrics);
  return metrics;
}
