import { randomUUID } from 'node:crypto';
import type { Channel, ChannelModel, ConfirmChannel, Message, Options } from 'amqplib';

export const ATTEMPTS_HEADER = 'x-attempts';
export const REASON_HEADER = 'x-dead-letter-reason';
export const ORIGINAL_QUEUE_HEADER = 'x-original-queue';
export const DEAD_LETTERED_AT_HEADER = 'x-dead-lettered-at';
export const LAST_ERROR_HEADER = 'x-last-error';
export const REPLAYED_AT_HEADER = 'x-replayed-at';
/** Epoch milliseconds of the relay's publish, kept by retry and DLQ copies. */
export const PUBLISHED_AT_HEADER = 'x-published-at';
/** On a message replayed from the DLQ by a traced replay: the `traceparent` it had, which the consumer's span links to. */
export const ORIGINAL_TRACEPARENT_HEADER = 'x-original-traceparent';

/** `<service>.<purpose>`, lower case: `notifications.email`. */
const QUEUE_NAME = /^[a-z0-9_-]+\.[a-z0-9_.-]+$/;

export function assertQueueName(queue: string): void {
  if (!QUEUE_NAME.test(queue) || queue.endsWith('.dlq')) throw new Error(`queue "${queue}" must be named <service>.<purpose> (lower case, not ending in .dlq)`);
}

export const dlqName = (queue: string) => `${queue}.dlq`;
/** The events exchange's alternate exchange (fanout) and the bounded queue behind it: `academy.events.unrouted`. */
export const unroutedName = (exchange: string) => `${exchange}.unrouted`;
export const retryQueueName = (queue: string, delayMs: number) => `${queue}.retry.${delayMs}ms`;

export interface ConsumerTopology {
  exchange: string;
  queue: string;
  /** Routing keys (event types) bound to the queue. */
  types: string[];
  retryDelaysMs: number[];
  /** Deliveries after which the broker itself parks a message in the DLQ (a crash loop, not a handler error). */
  deliveryLimit: number;
}

/** How long and how many events nobody consumes are kept in the catch-all queue (oldest dropped first). */
export interface UnroutedLimits {
  maxLength: number;
  ttlMs: number;
}

export const DEFAULT_UNROUTED_LIMITS: UnroutedLimits = { maxLength: 100_000, ttlMs: 7 * 24 * 3600 * 1000 };

export interface EventsExchange {
  /** Whether an event no queue is bound for goes to the catch-all queue (false: it is returned as unroutable). */
  alternate: boolean;
  warnings: string[];
}

const declaredExchanges = new WeakMap<ChannelModel, Map<string, Promise<EventsExchange>>>();

/** A channel whose errors are handled by the caller's promise (a failed declare closes it). */
async function openChannel(connection: ChannelModel): Promise<Channel> {
  const channel = await connection.createChannel();
  channel.on('error', () => undefined);
  return channel;
}

const isPreconditionFailed = (error: unknown) => (error as { code?: number }).code === 406;

/**
 * Declares, once per connection and idempotently: the topic exchange `exchange` with the alternate
 * exchange `<exchange>.unrouted` (fanout), bound to the bounded classic queue of the same name
 * (`x-max-length`, drop-head; `x-message-ttl`). So an event of a type no queue is bound for yet is
 * confirmed and kept for a while instead of being returned, and the outbox drains whether or not a
 * consumer exists.
 *
 * An exchange's arguments cannot change once declared: a broker that already has `exchange` without
 * the argument refuses the redeclare (PRECONDITION_FAILED). The exchange is then kept as it is, and a
 * probe (a message that expires at once) tells whether a policy gives it the alternate exchange;
 * when none does, `alternate` is false (the broker's publisher then forwards returned events to the
 * catch-all itself) and the returned warning says how to add one.
 */
export function assertEventsExchange(connection: ChannelModel, exchange: string, limits: UnroutedLimits = DEFAULT_UNROUTED_LIMITS): Promise<EventsExchange> {
  let byName = declaredExchanges.get(connection);
  if (!byName) declaredExchanges.set(connection, (byName = new Map()));
  let declared = byName.get(exchange);
  if (!declared) {
    declared = declareEventsExchange(connection, exchange, limits);
    byName.set(exchange, declared);
    // A failure (connection lost meanwhile) is not remembered: the next caller tries again.
    declared.catch(() => byName.delete(exchange));
  }
  return declared;
}

async function declareEventsExchange(connection: ChannelModel, exchange: string, limits: UnroutedLimits): Promise<EventsExchange> {
  const unrouted = unroutedName(exchange);
  const warnings: string[] = [];
  let channel = await openChannel(connection);
  try {
    // The alternate exchange and its queue first, so the events exchange never points at nothing.
    await channel.assertExchange(unrouted, 'fanout', { durable: true });
    const queueArguments = { 'x-queue-type': 'classic', 'x-max-length': limits.maxLength, 'x-overflow': 'drop-head', 'x-message-ttl': limits.ttlMs };
    try {
      await channel.assertQueue(unrouted, { durable: true, arguments: queueArguments });
    } catch (error) {
      if (!isPreconditionFailed(error)) throw error;
      channel = await openChannel(connection);
      await channel.checkQueue(unrouted);
      warnings.push(`queue ${unrouted} exists with other arguments than ${JSON.stringify(queueArguments)}; kept as it is (delete it to upgrade)`);
    }
    await channel.bindQueue(unrouted, unrouted, '');
    try {
      await channel.assertExchange(exchange, 'topic', { durable: true, arguments: { 'alternate-exchange': unrouted } });
      return { alternate: true, warnings };
    } catch (error) {
      if (!isPreconditionFailed(error)) throw error;
    }
    // Declared earlier without the argument: keep it, and see whether a policy routes the unroutable.
    await channel.close().catch(() => undefined);
    channel = await openChannel(connection);
    await channel.checkExchange(exchange);
    const alternate = await probeAlternate(connection, exchange);
    if (!alternate) {
      warnings.push(
        `exchange ${exchange} was declared without an alternate exchange: events of a type no queue is bound for come back to the publisher, which forwards them to ${unrouted} (one more round trip). ` +
          `Give it one by a policy (rabbitmqctl set_policy ${exchange}-unrouted '^${exchange.replace(/\./g, '\\.')}$' '{"alternate-exchange":"${unrouted}"}' --apply-to exchanges) ` +
          `or delete the exchange while every service is stopped (they declare it again at start).`,
      );
    }
    return { alternate, warnings };
  } finally {
    await channel.close().catch(() => undefined);
  }
}

/** Publishes a mandatory message that expires at once to a routing key nobody binds: returned = no alternate exchange. */
async function probeAlternate(connection: ChannelModel, exchange: string): Promise<boolean> {
  const channel = await connection.createConfirmChannel();
  channel.on('error', () => undefined);
  try {
    let returned = false;
    channel.on('return', () => {
      returned = true;
    });
    channel.publish(exchange, `academy.probe.${randomUUID()}`, Buffer.from(''), { mandatory: true, expiration: '0', type: 'academy.probe' });
    await channel.waitForConfirms();
    return !returned;
  } finally {
    await channel.close().catch(() => undefined);
  }
}

/**
 * Declares, idempotently: the events exchange (see `assertEventsExchange`); the quorum queue `<queue>` (delivery limit, dead-letters
 * to its DLQ); one quorum retry queue per delay whose expired messages go back to `<queue>`; the quorum
 * DLQ `<queue>.dlq`; the bindings of the handled types. A queue that already exists with other
 * arguments (declared by an older version) is kept as it is and reported in the returned warnings:
 * redeclaring it would fail, and deleting it would lose its messages.
 */
export async function assertConsumerTopology(connection: ChannelModel, topology: ConsumerTopology): Promise<string[]> {
  const { exchange, queue } = topology;
  // Declared once per connection (the broker's publish channel usually did it): its warnings are logged there.
  await assertEventsExchange(connection, exchange);
  const warnings: string[] = [];
  let channel = await connection.createChannel();
  channel.on('error', () => undefined);
  const declare = async (name: string, options: Options.AssertQueue) => {
    try {
      await channel.assertQueue(name, options);
    } catch (error) {
      if ((error as { code?: number }).code !== 406) throw error;
      // PRECONDITION_FAILED closed the channel: check on a new one that the queue exists, and keep it.
      channel = await connection.createChannel();
      channel.on('error', () => undefined);
      await channel.checkQueue(name);
      warnings.push(`queue ${name} exists with other arguments than ${JSON.stringify(options.arguments)}; kept as it is (delete it when empty to upgrade)`);
    }
  };
  try {
    await declare(dlqName(queue), { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    await declare(queue, {
      durable: true,
      arguments: {
        'x-queue-type': 'quorum',
        'x-delivery-limit': topology.deliveryLimit,
        'x-dead-letter-exchange': '',
        'x-dead-letter-routing-key': dlqName(queue),
      },
    });
    for (const delay of new Set(topology.retryDelaysMs)) {
      await declare(retryQueueName(queue, delay), {
        durable: true,
        arguments: {
          'x-queue-type': 'quorum',
          'x-message-ttl': delay,
          'x-dead-letter-exchange': '',
          'x-dead-letter-routing-key': queue,
          'x-dead-letter-strategy': 'at-least-once',
          'x-overflow': 'reject-publish',
        },
      });
    }
    for (const type of topology.types) await channel.bindQueue(queue, exchange, type);
  } finally {
    await channel.close().catch(() => undefined);
  }
  return warnings;
}

/**
 * Copies `message` to `target` (persistent, same id, type, correlation id and timestamp) with its
 * headers minus `dropped`, plus `added`; resolves once the broker confirmed the copy.
 */
export function copyToQueue(channel: ConfirmChannel, target: string, message: Message, dropped: readonly string[], added: Record<string, unknown>): Promise<void> {
  const headers: Record<string, unknown> = { ...message.properties.headers };
  for (const name of dropped) delete headers[name];
  const properties: Options.Publish = {
    contentType: message.properties.contentType,
    messageId: message.properties.messageId,
    type: message.properties.type,
    correlationId: message.properties.correlationId,
    timestamp: message.properties.timestamp,
    persistent: true,
    headers: { ...headers, ...added },
  };
  return new Promise<void>((resolve, reject) => {
    channel.sendToQueue(target, message.content, properties, (error: unknown) => (error ? reject(error instanceof Error ? error : new Error('the broker refused the message')) : resolve()));
  });
}
