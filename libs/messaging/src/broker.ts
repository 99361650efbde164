import { EventEmitter, once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import amqp, { type ChannelModel, type ConfirmChannel, type Message, type Options, type RecoveringChannelModel } from 'amqplib';
import type { Registry } from 'prom-client';
import type { EventEnvelope } from '@academy/contracts';
import type { Logger, ReadinessCheck } from '@academy/kit';
import { messagingMetrics, type MessagingMetrics } from './metrics.ts';
import { coalesceWrites, SOCKET_OPTIONS, socketOf } from './socket.ts';
import { assertEventsExchange, PUBLISHED_AT_HEADER, unroutedName, type EventsExchange, type UnroutedLimits } from './topology.ts';

export const DEFAULT_EXCHANGE = 'academy.events';

export interface BrokerOptions {
  url: string;
  /** Name of the service, used in logs and as the AMQP connection name. */
  service: string;
  logger: Logger;
  exchange?: string;
  /** Where the messaging metrics are registered (the service's `ctx.metrics.registry`). */
  registry?: Registry;
  /** Reconnect backoff: first delay and cap, in ms (jittered, doubling). */
  reconnectDelayMs?: { initial: number; max: number };
  /** A publish whose confirm has not arrived after this long counts as failed (it never hangs). */
  confirmTimeoutMs?: number;
  heartbeatSeconds?: number;
  /** A connection whose setup (publish channel, topology, consumers) has not finished after this long is dropped and opened again. */
  setupTimeoutMs?: number;
  /** Bounds of the catch-all queue of events no queue is bound for (default 100,000 events, 7 days). */
  unrouted?: UnroutedLimits;
  /**
   * TCP_NODELAY on the connection's socket, with the frames of one event-loop turn written together
   * (default true; see socket.ts). false is amqplib's default, Nagle's algorithm on: only to measure
   * what it costs (bench:events).
   */
  noDelay?: boolean;
  /**
   * Milliseconds of a monotonic clock (default `performance.now`). A publish reads its deadline from it before each
   * message it writes, as well as from its timer: given, so a test pins how long a write takes.
   */
  now?: () => number;
}

/** Outcome of one message of a `publishEach` call: null when confirmed, else why it was not published. */
export type PublishOutcome = null | PublishError;

export class PublishError extends Error {
  readonly reason: 'unroutable' | 'nacked' | 'channel_closed' | 'timeout' | 'not_connected';
  constructor(reason: PublishError['reason'], message: string) {
    super(message);
    this.name = 'PublishError';
    this.reason = reason;
  }
}

export interface PublishRouting {
  exchange?: string;
  routingKey?: (envelope: EventEnvelope) => string;
  /** Headers of each message, by its position (the relay's W3C `traceparent`/`tracestate`). */
  headers?: readonly (Record<string, string> | null)[];
}

/** A consumer or topology step re-run on every (re)connection, and stopped before the broker closes. */
export interface ConnectionSetup {
  setup(connection: ChannelModel): Promise<void>;
  stop?(): Promise<void>;
}

/** Persistent, mandatory, and identified by the event: what every published envelope carries. */
function messagePropertiesOf(envelope: EventEnvelope, headers: Record<string, string> | null | undefined): Options.Publish {
  return {
    // When it left the relay: the consumer's `messaging_delivery_delay_seconds` starts here.
    headers: { ...headers, [PUBLISHED_AT_HEADER]: Date.now() },
    persistent: true,
    mandatory: true,
    messageId: envelope.id,
    type: envelope.type,
    timestamp: Math.floor(Date.parse(envelope.occurredAt) / 1000),
    contentType: 'application/json',
    correlationId: envelope.correlationId,
  };
}

type Settle = (outcome: PublishOutcome) => void;

/**
 * What one publishing pass watches on its channel: messages the broker returned, the channel
 * closing, and the pass's deadline. Each written message's outcome settles once: its confirm, the
 * close, or the deadline, whichever comes first. The deadline is a timer, and the clock read before
 * each write: amqplib writes a message synchronously and pushes back only once its channel's buffers
 * are full (1,024 messages of 64 KB), so a pass writes that much in one turn of the event loop, where
 * no timer fires (to a broker that stopped reading: 11-13 s past a 1 s deadline at load 28).
 */
class ConfirmWatch {
  private readonly returned = new Set<string>();
  private readonly pending = new Set<Settle>();
  private closed = false;
  // Ends every wait of this pass: the confirms', and a wait for the socket to drain.
  private readonly deadline = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onReturn = (message: Message) => {
    if (message.properties.messageId) this.returned.add(String(message.properties.messageId));
  };
  private readonly onClose = () => {
    this.closed = true;
    this.settleAll(new PublishError('channel_closed', 'channel closed before the broker confirmed'));
  };

  private readonly channel: ConfirmChannel;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private readonly deadlineAt: number;

  constructor(channel: ConfirmChannel, timeoutMs: number, now: () => number) {
    this.channel = channel;
    this.timeoutMs = timeoutMs;
    this.now = now;
    this.deadlineAt = now() + timeoutMs;
    channel.on('return', this.onReturn);
    channel.once('close', this.onClose);
    this.timer = setTimeout(() => this.expire(), timeoutMs);
  }

  /** Once the channel closed or the deadline passed, what is left is not written at all: its outcome. */
  unwritten(): PublishError | null {
    if (this.closed) return new PublishError('channel_closed', 'channel closed before the message was written');
    if (!this.deadline.signal.aborted && this.now() >= this.deadlineAt) this.expire();
    if (this.deadline.signal.aborted) return new PublishError('timeout', `not written within ${this.timeoutMs} ms`);
    return null;
  }

  /** Writes one message through `publish` (given the confirm callback); its outcome, and whether the socket takes more now. */
  write(envelope: EventEnvelope, publish: (onConfirm: (error: unknown) => void) => boolean): { outcome: Promise<PublishOutcome>; writable: boolean } {
    let writable = true;
    const outcome = new Promise<PublishOutcome>((resolve) => {
      let settled = false;
      const settle: Settle = (result) => {
        if (settled) return;
        settled = true;
        this.pending.delete(settle);
        resolve(result);
      };
      this.pending.add(settle);
      try {
        writable = publish((error) => settle(this.confirmOutcome(envelope, error)));
      } catch (error) {
        settle(new PublishError('channel_closed', (error as Error).message));
      }
    });
    return { outcome, writable };
  }

  /**
   * Backpressure: waits until the socket drains, the channel closes (even before this wait began) or
   * the deadline passes, before more is written.
   */
  async drained(): Promise<void> {
    if (this.pending.size === 0) return;
    const abort = new AbortController();
    const signal = AbortSignal.any([abort.signal, this.deadline.signal]);
    if (!this.closed) await Promise.race([once(this.channel, 'drain', { signal }), once(this.channel, 'close', { signal }), once(signal, 'abort')]).catch(() => undefined);
    abort.abort();
  }

  end(): void {
    clearTimeout(this.timer);
    this.channel.off('return', this.onReturn);
    this.channel.off('close', this.onClose);
  }

  private confirmOutcome(envelope: EventEnvelope, error: unknown): PublishOutcome {
    const message = error instanceof Error ? error.message : String(error);
    if (error) return new PublishError(message === 'channel closed' ? 'channel_closed' : 'nacked', message);
    if (this.returned.has(envelope.id)) return new PublishError('unroutable', `no queue is bound for "${envelope.type}"`);
    return null;
  }

  /** The deadline passed: every written message not confirmed yet fails, and every wait of the pass ends. */
  private expire(): void {
    if (this.deadline.signal.aborted) return;
    this.settleAll(new PublishError('timeout', `no confirm within ${this.timeoutMs} ms`));
    this.deadline.abort();
  }

  private settleAll(outcome: PublishError): void {
    for (const settle of [...this.pending]) settle(outcome);
  }
}

/**
 * One AMQP connection per service, recovered by amqplib with jittered exponential backoff. Publishing
 * uses one confirm channel with per-message confirms (pipelined: many in flight at once); consumers
 * register a setup that is re-run after every reconnect.
 */
export class Broker extends EventEmitter {
  readonly exchange: string;
  readonly metrics: MessagingMetrics;
  private readonly options: BrokerOptions;
  private recovering: RecoveringChannelModel | null = null;
  private starting: Promise<void> | null = null;
  private connection: ChannelModel | null = null;
  private channel: ConfirmChannel | null = null;
  private channelRetry: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly setups: ConnectionSetup[] = [];
  private declared: EventsExchange | null = null;
  private readonly unroutedSource = () => this.unroutedDepth();

  constructor(options: BrokerOptions) {
    super();
    this.setMaxListeners(0);
    this.options = options;
    this.exchange = options.exchange ?? DEFAULT_EXCHANGE;
    this.metrics = messagingMetrics(options.registry);
    this.metrics.unroutedSources.add(this.unroutedSource);
  }

  get logger(): Logger {
    return this.options.logger;
  }

  /** True while a connection and the publishing channel are up. */
  get connected(): boolean {
    return this.channel !== null;
  }

  /** How long a publish waits for its confirm before it counts as failed. */
  get confirmTimeoutMs(): number {
    return this.options.confirmTimeoutMs ?? 15_000;
  }

  /**
   * Whether the exchange has its alternate exchange, so events no queue is bound for are kept in the
   * catch-all queue instead of being returned (null until the first connection).
   */
  get hasAlternateExchange(): boolean | null {
    return this.declared?.alternate ?? null;
  }

  /** Messages waiting in the catch-all queue `<exchange>.unrouted`, or null while not connected. */
  unroutedDepth(): Promise<number | null> {
    return this.queueDepth(unroutedName(this.exchange));
  }

  /** Messages ready in a queue, or null while not connected (a missing queue rejects). */
  async queueDepth(queue: string): Promise<number | null> {
    const connection = this.connection;
    if (!connection) return null;
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    try {
      return (await channel.checkQueue(queue)).messageCount;
    } finally {
      await channel.close().catch(() => undefined);
    }
  }

  /** Starts connecting in the background (idempotent); resolves once the first connection is up. */
  start(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('broker is closed'));
    this.starting ??= this.open();
    return this.starting;
  }

  private async open(): Promise<void> {
    const delays = this.options.reconnectDelayMs ?? { initial: 200, max: 5000 };
    const url = new URL(this.options.url);
    // Heartbeats detect a silently dead peer (no TCP reset) within two intervals.
    if (!url.searchParams.has('heartbeat')) url.searchParams.set('heartbeat', String(this.options.heartbeatSeconds ?? 10));
    const recovering = await amqp.connect(url.toString(), {
      clientProperties: { connection_name: this.options.service },
      noDelay: this.options.noDelay ?? SOCKET_OPTIONS.noDelay,
      // A connection attempt that hangs (a broker still booting or shutting down) fails and is retried.
      timeout: 10_000,
      recovery: { initialDelay: delays.initial, maxDelay: delays.max, waitForConnect: false, setup: (model: ChannelModel) => this.onConnection(model) },
    });
    if (this.closed) {
      await recovering.close();
      return;
    }
    this.recovering = recovering;
    recovering.on('connect', () => {
      this.logger.info('broker connected');
      this.emit('connected');
    });
    recovering.on('disconnect', (error: Error) => {
      this.connection = null;
      this.channel = null;
      this.logger.warn({ err: error }, 'broker connection lost; reconnecting');
      this.emit('disconnected');
    });
    recovering.on('reconnect-scheduled', ({ attempt, delay, error }: { attempt: number; delay: number; error: Error }) =>
      this.logger.warn({ err: error, attempt, retryInMs: delay }, 'broker unreachable'),
    );
    recovering.on('error', (error: Error) => this.logger.warn({ err: error }, 'broker connection error'));
    recovering.on('blocked', (reason: string) => this.logger.warn({ reason }, 'broker blocked publishing'));
    await recovering.waitForConnect().catch((error: unknown) => {
      if (!this.closed) throw error;
    });
  }

  /**
   * Runs on each new connection before it is announced: publishing channel, exchange, consumers.
   * A setup that fails or does not finish within `setupTimeoutMs` drops the connection's socket
   * before it fails, so amqplib's recovery schedules the next attempt at once. Left to itself the
   * recovery would close the connection politely and wait for the broker's CloseOk, which never
   * comes when the broker is going down at that moment (it sends its own Close instead): the
   * recovery then waited for ever, and the service never reconnected.
   */
  private async onConnection(connection: ChannelModel): Promise<void> {
    const timeoutMs = this.options.setupTimeoutMs ?? 30_000;
    let timer: NodeJS.Timeout | undefined;
    // amqplib's recovery listens for the connection's close only once the setup has succeeded: a
    // connection that closes while its setup runs, and a setup that still succeeds (a consumer that
    // could not start retries on its own), would leave the recovery holding a dead connection for
    // ever. Such a setup fails instead, and the next attempt is scheduled.
    let closed = false;
    const onClose = () => {
      closed = true;
    };
    connection.once('close', onClose);
    try {
      await Promise.race([
        this.setUpConnection(connection),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error(`connection setup did not finish within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
      if (closed) throw new Error('the connection closed while it was being set up');
    } catch (error) {
      this.logger.warn({ err: error }, 'broker connection setup failed; connecting again');
      await dropConnection(connection);
      throw error;
    } finally {
      clearTimeout(timer);
      connection.off('close', onClose);
    }
  }

  private async setUpConnection(connection: ChannelModel): Promise<void> {
    const socket = socketOf(connection);
    if (socket && (this.options.noDelay ?? SOCKET_OPTIONS.noDelay)) coalesceWrites(socket);
    connection.on('error', () => undefined);
    connection.setMaxListeners(0); // each consumer watches the connection's close
    const channel = await this.openPublishChannel(connection);
    this.connection = connection;
    this.channel = channel;
    connection.once('close', () => {
      if (this.connection === connection) {
        this.connection = null;
        this.channel = null;
      }
    });
    for (const step of this.setups) await step.setup(connection);
  }

  private async openPublishChannel(connection: ChannelModel): Promise<ConfirmChannel> {
    const channel = await connection.createConfirmChannel();
    channel.setMaxListeners(0);
    channel.on('error', (error: Error) => this.logger.warn({ err: error }, 'broker publish channel error'));
    channel.once('close', () => {
      if (this.channel !== channel) return;
      this.channel = null;
      // The channel died but the connection lives (e.g. a channel-level error): open another one.
      if (!this.closed && this.connection === connection) this.reopenPublishChannel(connection, 100);
    });
    // Declared once per connection: a reopened channel finds it done (and its warnings already logged).
    const declared = await assertEventsExchange(connection, this.exchange, this.options.unrouted);
    if (declared !== this.declared) for (const warning of declared.warnings) this.logger.warn(warning);
    this.declared = declared;
    return channel;
  }

  private reopenPublishChannel(connection: ChannelModel, delayMs: number): void {
    if (this.channelRetry) return;
    this.channelRetry = setTimeout(() => {
      this.channelRetry = null;
      if (this.closed || this.connection !== connection) return;
      this.openPublishChannel(connection).then(
        (channel) => {
          if (this.connection === connection) {
            this.channel = channel;
            this.emit('connected');
          } else void channel.close().catch(() => undefined);
        },
        (error: unknown) => {
          this.logger.warn({ err: error }, 'could not reopen the publish channel');
          this.reopenPublishChannel(connection, Math.min(delayMs * 2, 5000));
        },
      );
    }, delayMs);
  }

  /** Registers a setup step (topology, consumers) run now if connected and on every reconnection. */
  async onConnect(step: ConnectionSetup | ((connection: ChannelModel) => Promise<void>)): Promise<void> {
    const entry = typeof step === 'function' ? { setup: step } : step;
    this.setups.push(entry);
    if (this.connection) await entry.setup(this.connection);
  }

  /**
   * Publishes each envelope (persistent, mandatory) without waiting in between, then waits for all
   * confirms. Resolves with one outcome per envelope: null when the broker confirmed it (routed to a
   * queue, or kept in the catch-all `<exchange>.unrouted` when no queue is bound for its type),
   * otherwise the reason (returned as unroutable, nacked, channel closed, timed out). Never hangs.
   */
  async publishEach(envelopes: EventEnvelope[], routing: PublishRouting = {}): Promise<PublishOutcome[]> {
    const results = await this.publishOnce(envelopes, routing);
    // An exchange declared before the catch-all existed has no alternate exchange (and no policy gave
    // it one): the publisher forwards what the broker returned to the catch-all itself.
    if (routing.exchange || this.declared?.alternate !== false) return results;
    const returned = results.flatMap((result, index) => (result?.reason === 'unroutable' ? [index] : []));
    if (returned.length === 0) return results;
    const parked = await this.publishOnce(
      returned.map((index) => envelopes[index]),
      { exchange: unroutedName(this.exchange), routingKey: routing.routingKey, headers: routing.headers && returned.map((index) => routing.headers![index]) },
    );
    returned.forEach((index, position) => (results[index] = parked[position]));
    return results;
  }

  /** One pass over the envelopes: write each (waiting on backpressure), then wait for every confirm, never past the deadline. */
  private async publishOnce(envelopes: EventEnvelope[], routing: PublishRouting): Promise<PublishOutcome[]> {
    const channel = this.channel;
    if (!channel) return envelopes.map(() => new PublishError('not_connected', 'broker is not connected'));
    const exchange = routing.exchange ?? this.exchange;
    const watch = new ConfirmWatch(channel, this.confirmTimeoutMs, this.options.now ?? performance.now.bind(performance));
    try {
      const outcomes: Promise<PublishOutcome>[] = [];
      for (const [position, envelope] of envelopes.entries()) {
        const unwritten = watch.unwritten();
        if (unwritten) {
          outcomes.push(Promise.resolve(unwritten));
          continue;
        }
        const { outcome, writable } = watch.write(envelope, (onConfirm) =>
          channel.publish(exchange, routing.routingKey?.(envelope) ?? envelope.type, Buffer.from(JSON.stringify(envelope)), messagePropertiesOf(envelope, routing.headers?.[position]), onConfirm),
        );
        outcomes.push(outcome);
        if (!writable) await watch.drained();
      }
      const results = await Promise.all(outcomes);
      this.countPublished(envelopes, results);
      return results;
    } finally {
      watch.end();
    }
  }

  private countPublished(envelopes: EventEnvelope[], results: PublishOutcome[]): void {
    for (let i = 0; i < envelopes.length; i++) if (results[i] === null) this.metrics.published.inc({ type: envelopes[i].type });
  }

  /**
   * Publishes envelopes with the mandatory flag and waits for the broker's confirms. Rejects when
   * the broker is away, a message is returned as unroutable, or the channel closes meanwhile.
   */
  async publish(envelopes: EventEnvelope[], routing: PublishRouting = {}): Promise<void> {
    const outcomes = await this.publishEach(envelopes, routing);
    const failures = outcomes.filter((outcome): outcome is PublishError => outcome !== null);
    if (failures.length > 0) throw new PublishError(failures[0].reason, `${failures.length} of ${envelopes.length} message(s) not published: ${failures[0].message}`);
  }

  /**
   * Non-critical: with RabbitMQ away a service still answers and its writes wait in the outbox, so
   * a broker outage must not take every pod out of its load balancer (degraded, still 200).
   */
  readiness(): ReadinessCheck {
    return {
      name: 'broker',
      critical: false,
      check: () => {
        if (!this.channel) throw new Error('not connected to RabbitMQ');
      },
    };
  }

  /** Stops every consumer: no new deliveries, in-flight handlers finish and settle. */
  async stopConsuming(): Promise<void> {
    await Promise.all(this.setups.map((step) => step.stop?.()));
  }

  /** Stops consuming, waits for in-flight handlers, then closes the connection. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.stopConsuming();
    this.closed = true;
    this.metrics.unroutedSources.delete(this.unroutedSource);
    if (this.channelRetry) clearTimeout(this.channelRetry);
    this.connection = null;
    this.channel = null;
    const recovering = this.recovering;
    this.recovering = null;
    // Bounded: a broker going down at the same moment may never answer the Close.
    await Promise.race([recovering?.close().catch(() => undefined), delay(5000, undefined, { ref: false })]);
    this.starting?.catch(() => undefined);
  }
}

/**
 * Closes a connection by destroying its socket (no Close/CloseOk exchange with the broker) and waits
 * until amqplib has seen it closed (1 s at most), after which its `close()` answers at once.
 */
async function dropConnection(connection: ChannelModel): Promise<void> {
  const socket = socketOf(connection);
  if (!socket || socket.destroyed) return; // closed already: amqplib has seen it
  const closed = once(connection, 'close').then(
    () => undefined,
    () => undefined,
  );
  // With an error: amqplib treats it as a socket error and closes the connection on its side at once.
  socket.destroy(new Error('connection dropped: its setup failed'));
  await Promise.race([closed, delay(1000, undefined, { ref: false })]);
}

export function createBroker(options: BrokerOptions): Broker {
  return new Broker(options);
}
