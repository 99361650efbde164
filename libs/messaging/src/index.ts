export { OutboxMessage, InboxMessage, messagingEntities } from './entities.ts';
export { recordEvent, type EventMeta } from './outbox.ts';
export { Broker, createBroker, DEFAULT_EXCHANGE, type BrokerOptions } from './broker.ts';
export { startOutboxRelay, type OutboxRelay, type RelayOptions } from './relay.ts';
export { consume, ATTEMPTS_HEADER, REASON_HEADER, type ConsumeOptions, type EventHandler, type EventHandlers, type HandledEvent } from './consumer.ts';
