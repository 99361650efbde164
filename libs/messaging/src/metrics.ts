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
  /** Sources summed by the `messaging_outbox_backlog` gauge at scrape time (one per relay). */
  backlogSources: Set<() => Promise<number>>;
}

const byRegistry = new WeakMap<Registry, MessagingMetrics>();

export function messagingMetrics(registry: Registry = new Registry()): MessagingMetrics {
  const existing = byRegistry.get(registry);
  if (existing) return existing;
  const registers = [registry];
  const backlogSources = new Set<() => Promise<number>>();
  const metrics: MessagingMetrics = {
    registry,
    published: new Counter({ name: 'messaging_published_total', help: 'Events published and confirmed by the broker, by type', labelNames: ['type'], registers }),
    publishFailed: new Counter({ name: 'messaging_publish_failed_total', help: 'Outbox rows whose publication failed (will be retried), by reason', labelNames: ['reason'], registers }),
    consumed: new Counter({
      name: 'messaging_consumed_total',
      help: 'Messages settled by consumers, by queue, type and outcome (handled, duplicate, retried, dead_lettered)',
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
    backlogSources,
  };
  new Gauge({
    name: 'messaging_outbox_backlog',
    help: 'Outbox rows not yet published',
    registers,
    async collect() {
      const counts = await Promise.all([...backlogSources].map((source) => source().catch(() => 0)));
      this.set(counts.reduce((sum, count) => sum + count, 0));
    },
  });
  byRegistry.set(registry, metrics);
  return metrics;
}
