export { OutboxMessage, InboxMessage, messagingEntities } from './entities.ts';
export { recordEvent, outboxInsertSql, outboxRow, OUTBOX_INSERT_COLUMNS, type EventMeta, type OutboxRowSql } from './outbox.ts';
export { Broker, createBroker, DEFAULT_EXCHANGE, PublishError, type BrokerOptions, type PublishOutcome, type PublishRouting, type ConnectionSetup } from './broker.ts';
export { startOutboxRelay, type OutboxRelay, type RelayOptions } from './relay.ts';
export { ensureOutboxNotify, OUTBOX_CHANNEL } from './notify.ts';
export { consume, DEFAULT_BATCH_SIZE, DEFAULT_RETRY_DELAYS_MS, type Consumer, type ConsumeOptions, type EventHandler, type EventHandlers, type HandledEvent } from './consumer.ts';
export {
  ATTEMPTS_HEADER,
  REASON_HEADER,
  ORIGINAL_QUEUE_HEADER,
  DEAD_LETTERED_AT_HEADER,
  LAST_ERROR_HEADER,
  REPLAYED_AT_HEADER,
  ORIGINAL_TRACEPARENT_HEADER,
  dlqName,
  retryQueueName,
  unroutedName,
  assertConsumerTopology,
  assertEventsExchange,
  DEFAULT_UNROUTED_LIMITS,
  type ConsumerTopology,
  type EventsExchange,
  type UnroutedLimits,
} from './topology.ts';
export { messagingMetrics, type MessagingMetrics, type OutboxStats } from './metrics.ts';
export { listDeadLetters, replayDeadLetters, type DeadLetter, type ReplayResult } from './dlq.ts';
