import type { ChannelModel, ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { Logger } from '@academy/kit';
import type { Broker } from './broker.ts';
import { assertConsumerTopology } from './topology.ts';

export interface ConsumerChannelOptions {
  queue: string;
  types: string[];
  retryDelaysMs: number[];
  deliveryLimit: number;
  prefetch: number;
  log: Logger;
}

/**
 * The consumer's channel through the broker's reconnections: on every connection, declares the
 * topology and consumes on a new confirm channel, handing each delivery to `deliver`. A channel
 * that closes while its connection lives, or a start that fails, is retried (250 ms doubling to 5 s).
 * Resolves with `stop`: cancel, `drain` what is in hand, close the channel.
 */
export async function keepConsuming(
  broker: Broker,
  options: ConsumerChannelOptions,
  deliver: (ch: ConfirmChannel, message: ConsumeMessage) => void,
  drain: () => Promise<void>,
): Promise<() => Promise<void>> {
  const { queue, types, retryDelaysMs, deliveryLimit, prefetch, log } = options;
  let stopped = false;
  let channel: ConfirmChannel | null = null;
  let consumerTag: string | null = null;
  let resetupTimer: NodeJS.Timeout | null = null;

  const scheduleSetup = (connection: ChannelModel, alive: () => boolean, delayMs: number) => {
    if (stopped || resetupTimer) return;
    resetupTimer = setTimeout(() => {
      resetupTimer = null;
      if (stopped || !alive()) return;
      setup(connection).catch((error: unknown) => {
        log.warn({ err: error }, 'could not resume consuming; retrying');
        scheduleSetup(connection, alive, Math.min(delayMs * 2, 5000));
      });
    }, delayMs);
  };

  async function setup(connection: ChannelModel): Promise<void> {
    if (stopped) return;
    let connectionAlive = true;
    connection.once('close', () => {
      connectionAlive = false;
    });
    for (const warning of await assertConsumerTopology(connection, { exchange: broker.exchange, queue, types, retryDelaysMs, deliveryLimit })) log.warn(warning);
    const ch = await connection.createConfirmChannel();
    ch.on('error', (error: Error) => log.warn({ err: error }, 'consumer channel error'));
    ch.once('close', () => {
      if (channel !== ch) return;
      channel = null;
      consumerTag = null;
      // A channel-level failure while the connection lives: resume on a new channel.
      scheduleSetup(connection, () => connectionAlive, 250);
    });
    await ch.prefetch(prefetch);
    channel = ch;
    const reply = await ch.consume(queue, (message) => {
      if (message) deliver(ch, message);
      else void ch.close().catch(() => undefined); // cancelled by the broker (queue deleted): resume on a new channel
    });
    consumerTag = reply.consumerTag;
  }

  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (resetupTimer) clearTimeout(resetupTimer);
    const ch = channel;
    if (ch && consumerTag) await ch.cancel(consumerTag).catch(() => undefined);
    await drain(); // deliveries received before the cancel are handled too
    channel = null;
    await ch?.close().catch(() => undefined);
  };

  // Run on every (re)connection. A consumer that cannot start now (its queue not available yet after a
  // broker restart) retries on its own; it never fails the connection, so publishing resumes anyway.
  const start = async (connection: ChannelModel) => {
    let alive = true;
    connection.once('close', () => {
      alive = false;
    });
    try {
      await setup(connection);
    } catch (error) {
      log.warn({ err: error }, 'could not start consuming; retrying');
      scheduleSetup(connection, () => alive, 250);
    }
  };
  await broker.onConnect({ setup: start, stop });
  return stop;
}
