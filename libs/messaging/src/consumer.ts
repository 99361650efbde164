import type { ChannelModel, ConsumeMessage } from 'amqplib';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { EventEnvelope, eventSchemas, type EventData, type EventType } from '@academy/contracts';
import type { Broker } from './broker.ts';

export interface HandledEvent<T extends EventType> {
  id: string;
  type: T;
  occurredAt: string;
  source: string;
  correlationId: string;
  data: EventData<T>;
}

export type EventHandler<T extends EventType> = (em: EntityManager, event: HandledEvent<T>) => Promise<void>;
export type EventHandlers = { [T in EventType]?: EventHandler<T> };

export interface ConsumeOptions {
  orm: MikroORM;
  /** `<service>.<purpose>`, e.g. `hours-bank.replicas`. */
  queue: string;
  handlers: EventHandlers;
  prefetch?: number;
  /** Attempts before a failing message is parked in `<queue>.dlq`. */
  maxAttempts?: number;
  /** Delays of the retry steps, growing. */
  retryDelaysMs?: number[];
}

export const ATTEMPTS_HEADER = 'x-attempts';
export const REASON_HEADER = 'x-dead-letter-reason';

/**
 * Declares the queue (quorum), its retry queues and its DLQ, binds the handled event types, and
 * consumes with manual acks. A handler's database work and the inbox row commit together, so a
 * redelivered event is a no-op.
 */
export async function consume(broker: Broker, options: ConsumeOptions): Promise<void> {
  const { orm, queue, handlers } = options;
  const prefetch = options.prefetch ?? 50;
  const maxAttempts = options.maxAttempts ?? 5;
  const delays = options.retryDelaysMs ?? [1000, 5000, 30000];
  const dlq = `${queue}.dlq`;
  const retryQueue = (index: number) => `${queue}.retry.${delays[index]}ms`;

  await broker.onConnect(async (connection: ChannelModel) => {
    const channel = await connection.createConfirmChannel();
    await channel.assertExchange(broker.exchange, 'topic', { durable: true });
    await channel.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    await channel.assertQueue(dlq, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    for (let i = 0; i < delays.length; i++) {
      await channel.assertQueue(retryQueue(i), {
        durable: true,
        arguments: { 'x-message-ttl': delays[i], 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': queue },
      });
    }
    for (const type of Object.keys(handlers)) await channel.bindQueue(queue, broker.exchange, type);
    await channel.prefetch(prefetch);

    const sendTo = async (target: string, message: ConsumeMessage, headers: Record<string, unknown>) => {
      channel.sendToQueue(target, message.content, { ...message.properties, headers: { ...message.properties.headers, ...headers }, persistent: true });
      await channel.waitForConfirms();
    };

    const handle = async (message: ConsumeMessage) => {
      const attempts = Number(message.properties.headers?.[ATTEMPTS_HEADER] ?? 0) + 1;
      let event: HandledEvent<EventType>;
      try {
        const envelope = EventEnvelope.parse(JSON.parse(message.content.toString('utf8')));
        const schema = eventSchemas[envelope.type as EventType];
        if (!schema) throw new Error(`unknown event type ${envelope.type}`);
        event = { ...envelope, type: envelope.type as EventType, data: schema.parse(envelope.data) as never };
      } catch (error) {
        await sendTo(dlq, message, { [REASON_HEADER]: `invalid message: ${(error as Error).message.slice(0, 500)}`, [ATTEMPTS_HEADER]: attempts });
        channel.ack(message);
        return;
      }
      const handler = handlers[event.type] as EventHandler<EventType> | undefined;
      try {
        await orm.em.fork().transactional(async (em) => {
          const inserted = await em.getConnection().execute(
            `insert into inbox (event_id, consumer, type, processed_at) values (?, ?, ?, now()) on conflict do nothing`,
            [event.id, queue, event.type],
            'run',
            em.getTransactionContext(),
          );
          if ((inserted as { affectedRows?: number }).affectedRows === 0) return;
          await handler?.(em, event);
        });
        channel.ack(message);
      } catch (error) {
        broker.logger.warn({ err: error, eventId: event.id, type: event.type, attempts }, 'event handler failed');
        const reason = (error as Error).message.slice(0, 500);
        if (attempts >= maxAttempts) {
          await sendTo(dlq, message, { [REASON_HEADER]: reason, [ATTEMPTS_HEADER]: attempts });
        } else {
          await sendTo(retryQueue(Math.min(attempts - 1, delays.length - 1)), message, { [ATTEMPTS_HEADER]: attempts, [REASON_HEADER]: reason });
        }
        channel.ack(message);
      }
    };

    await channel.consume(queue, (message) => {
      if (!message) return;
      handle(message).catch((error: unknown) => {
        broker.logger.error({ err: error }, 'could not settle a message; it will be redelivered');
      });
    });
  });
}
