import type { ChannelModel, ConfirmChannel, Message, Options } from 'amqplib';

export const ATTEMPTS_HEADER = 'x-attempts';
export const REASON_HEADER = 'x-dead-letter-reason';
export const ORIGINAL_QUEUE_HEADER = 'x-original-queue';
export const DEAD_LETTERED_AT_HEADER = 'x-dead-lettered-at';
export const LAST_ERROR_HEADER = 'x-last-error';
export const REPLAYED_AT_HEADER = 'x-replayed-at';

/** `<service>.<purpose>`, lower case: `notifications.block-approved`. */
const QUEUE_NAME = /^[a-z0-9_-]+\.[a-z0-9_.-]+$/;

export function assertQueueName(queue: string): void {
  if (!QUEUE_NAME.test(queue) || queue.endsWith('.dlq')) throw new Error(`queue "${queue}" must be named <service>.<purpose> (lower case, not ending in .dlq)`);
}

export const dlqName = (queue: string) => `${queue}.dlq`;
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

/**
 * Declares, idempotently: the topic exchange; the quorum queue `<queue>` (delivery limit, dead-letters
 * to its DLQ); one quorum retry queue per delay whose expired messages go back to `<queue>`; the quorum
 * DLQ `<queue>.dlq`; the bindings of the handled types. A queue that already exists with other
 * arguments (declared by an older version) is kept as it is and reported in the returned warnings:
 * redeclaring it would fail, and deleting it would lose its messages.
 */
export async function assertConsumerTopology(connection: ChannelModel, topology: ConsumerTopology): Promise<string[]> {
  const { exchange, queue } = topology;
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
    await channel.assertExchange(exchange, 'topic', { durable: true });
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
