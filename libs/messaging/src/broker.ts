import { EventEmitter } from 'node:events';
import amqp, { type ChannelModel, type ConfirmChannel } from 'amqplib';
import type { EventEnvelope } from '@academy/contracts';
import type { Logger, ReadinessCheck } from '@academy/kit';

export const DEFAULT_EXCHANGE = 'academy.events';

export interface BrokerOptions {
  url: string;
  /** Name of the service, used in logs and as the AMQP connection name. */
  service: string;
  logger: Logger;
  exchange?: string;
}

/**
 * One AMQP connection per service, re-established with backoff when it drops. Publishing uses a
 * confirm channel; consumers re-subscribe after every reconnect.
 */
export class Broker extends EventEmitter {
  readonly exchange: string;
  private connection: ChannelModel | null = null;
  private channel: ConfirmChannel | null = null;
  private connecting: Promise<void> | null = null;
  private closed = false;
  private attempt = 0;
  private readonly setups: ((channelModel: ChannelModel) => Promise<void>)[] = [];

  private readonly options: BrokerOptions;

  constructor(options: BrokerOptions) {
    super();
    this.options = options;
    this.exchange = options.exchange ?? DEFAULT_EXCHANGE;
  }

  get logger(): Logger {
    return this.options.logger;
  }

  get connected(): boolean {
    return this.channel !== null;
  }

  /** Starts connecting in the background; resolves once the first connection is up. */
  start(): Promise<void> {
    return this.ensureConnected();
  }

  private ensureConnected(): Promise<void> {
    if (this.channel) return Promise.resolve();
    this.connecting ??= this.connectLoop().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async connectLoop(): Promise<void> {
    while (!this.closed) {
      try {
        const connection = await amqp.connect(this.options.url, { clientProperties: { connection_name: this.options.service } });
        connection.on('error', (error) => this.logger.warn({ err: error }, 'broker connection error'));
        connection.on('close', () => this.onClose());
        const channel = await connection.createConfirmChannel();
        channel.on('error', (error) => this.logger.warn({ err: error }, 'broker channel error'));
        await channel.assertExchange(this.exchange, 'topic', { durable: true });
        this.connection = connection;
        this.channel = channel;
        this.attempt = 0;
        for (const setup of this.setups) await setup(connection);
        this.logger.info('broker connected');
        this.emit('connected');
        return;
      } catch (error) {
        this.connection = null;
        this.channel = null;
        const delay = Math.min(250 * 2 ** this.attempt++, 5000);
        this.logger.warn({ err: error, retryInMs: delay }, 'broker unreachable');
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  private onClose(): void {
    this.connection = null;
    this.channel = null;
    this.emit('disconnected');
    if (!this.closed) {
      this.logger.warn('broker connection closed; reconnecting');
      void this.ensureConnected();
    }
  }

  /** Registers a setup step (topology, consumers) run on every (re)connection. */
  async onConnect(setup: (channelModel: ChannelModel) => Promise<void>): Promise<void> {
    this.setups.push(setup);
    if (this.connection) await setup(this.connection);
  }

  /**
   * Publishes envelopes with the mandatory flag and waits for the broker's confirms. Rejects when
   * the broker is away, a message is returned as unroutable, or the channel closes meanwhile.
   */
  async publish(envelopes: EventEnvelope[], routing: { exchange?: string; routingKey?: (e: EventEnvelope) => string } = {}): Promise<void> {
    const channel = this.channel;
    if (!channel) throw new Error('broker is not connected');
    const returned = new Set<string>();
    const onReturn = (message: { properties: { messageId?: string } }) => {
      if (message.properties.messageId) returned.add(message.properties.messageId);
    };
    channel.on('return', onReturn);
    try {
      for (const envelope of envelopes) {
        channel.publish(routing.exchange ?? this.exchange, routing.routingKey?.(envelope) ?? envelope.type, Buffer.from(JSON.stringify(envelope)), {
          persistent: true,
          mandatory: true,
          messageId: envelope.id,
          type: envelope.type,
          contentType: 'application/json',
          correlationId: envelope.correlationId,
        });
      }
      await new Promise<void>((resolve, reject) => {
        const onClose = () => reject(new Error('channel closed before the broker confirmed'));
        channel.once('close', onClose);
        channel.waitForConfirms().then(
          () => {
            channel.off('close', onClose);
            resolve();
          },
          (error: unknown) => {
            channel.off('close', onClose);
            reject(error instanceof Error ? error : new Error('the broker refused a message'));
          },
        );
      });
      if (returned.size > 0) throw new Error(`${returned.size} message(s) were unroutable`);
    } finally {
      channel.off('return', onReturn);
    }
  }

  readiness(): ReadinessCheck {
    return {
      name: 'broker',
      check: () => {
        if (!this.channel) throw new Error('not connected to RabbitMQ');
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    const connection = this.connection;
    this.connection = null;
    this.channel = null;
    await connection?.close().catch(() => undefined);
  }
}

export function createBroker(options: BrokerOptions): Broker {
  return new Broker(options);
}
