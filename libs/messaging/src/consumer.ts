import type { ChannelModel, ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { parseEnvelope, type EventData, type EventType, type EventVersions } from '@academy/contracts';
import type { Broker } from './broker.ts';
import {
  ATTEMPTS_HEADER,
  DEAD_LETTERED_AT_HEADER,
  LAST_ERROR_HEADER,
  ORIGINAL_QUEUE_HEADER,
  REASON_HEADER,
  assertConsumerTopology,
  assertQueueName,
  copyToQueue,
  dlqName,
  retryQueueName,
} from './topology.ts';

export { ATTEMPTS_HEADER, REASON_HEADER } from './topology.ts';

export interface HandledEvent<T extends EventType> {
  id: string;
  type: T;
  version: number;
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
  /**
   * Versions of a type this consumer's handler reads, where it reads more than the catalogue's
   * current one (say version 1 and 2 while producers move to 2). An envelope of any other version
   * is parked in the DLQ at once, with the versions it would have read in the reason.
   */
  versions?: EventVersions;
  /** Unacked messages in flight at once (handled concurrently). */
  prefetch?: number;
  /** Handler attempts before a failing message is parked in `<queue>.dlq`. */
  maxAttempts?: number;
  /** Delays of the retry steps, growing; the last one repeats. */
  retryDelaysMs?: number[];
  /** Deliveries (redeliveries after crashes included) after which the broker parks a message. */
  deliveryLimit?: number;
  /** How long `stop()` waits for in-flight handlers before closing the channel (they are redelivered). */
  stopTimeoutMs?: number;
  /**
   * Up to this many deliveries already waiting are handled in one transaction (handlers one after the
   * other, one commit), for cheap database-only handlers such as replicas. A failure rolls the batch
   * back and its events are handled one by one. Default 1: each event in its own transaction.
   */
  batchSize?: number;
}

export interface Consumer {
  readonly queue: string;
  /** Messages being handled right now. */
  readonly inFlight: number;
  /** Stops taking deliveries, lets in-flight handlers finish and settle, closes the channel. */
  stop(): Promise<void>;
}

type Outcome = 'handled' | 'duplicate' | 'retried' | 'dead_lettered';

/** Retry delays of a consumer that names none: a retry queue `<queue>.retry.<ms>ms` each. */
export const DEFAULT_RETRY_DELAYS_MS = [1000, 5000, 30000];

const STRIPPED_HEADERS = ['x-delivery-count'];

/**
 * Declares the queue (quorum), its retry queues and its DLQ, binds the handled event types, and
 * consumes with manual acks and bounded prefetch. The envelope is validated first (invalid, or a
 * version this consumer does not read: DLQ at once). A handler's database work and the inbox row commit together, so a redelivered event is a
 * no-op; a failing handler is retried with growing delay, then parked in the DLQ with the reason and
 * the attempt count in headers.
 */
export async function consume(broker: Broker, options: ConsumeOptions): Promise<Consumer> {
  const { orm, queue, handlers } = options;
  assertQueueName(queue);
  const prefetch = options.prefetch ?? 50;
  const maxAttempts = options.maxAttempts ?? 5;
  const delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const deliveryLimit = options.deliveryLimit ?? 20;
  const stopTimeoutMs = options.stopTimeoutMs ?? 30_000;
  const batchSize = options.batchSize ?? 1;
  if (!(prefetch > 0 && maxAttempts > 0 && batchSize > 0 && delays.length > 0 && delays.every((delay) => delay > 0))) {
    throw new Error('consume: prefetch, maxAttempts, batchSize and every retry delay must be positive, with at least one delay');
  }
  const types = Object.keys(handlers);
  const { metrics, logger } = broker;
  const log = logger.child({ queue });

  let stopped = false;
  let channel: ConfirmChannel | null = null;
  let consumerTag: string | null = null;
  let resetupTimer: NodeJS.Timeout | null = null;
  const inFlight = new Set<Promise<void>>();
  let busy = 0;

  const forward = (ch: ConfirmChannel, target: string, message: ConsumeMessage, headers: Record<string, unknown>) => copyToQueue(ch, target, message, STRIPPED_HEADERS, headers);

  const settle = (ch: ConfirmChannel, message: ConsumeMessage) => {
    // On a closed channel the ack cannot be sent: the broker redelivers and the inbox makes it a no-op.
    try {
      ch.ack(message);
    } catch (error) {
      log.debug({ err: error }, 'ack not sent; the message will be redelivered');
    }
  };

  const attemptsOf = (message: ConsumeMessage) => Number(message.properties.headers?.[ATTEMPTS_HEADER] ?? 0) + 1;

  /** Parses the envelope; an invalid message, or one of a version this consumer does not read, is parked in the DLQ at once (no retry can fix it). */
  const parse = async (ch: ConfirmChannel, message: ConsumeMessage): Promise<HandledEvent<EventType> | null> => {
    const parsed = parseEnvelope(message.content, options.versions);
    if (!parsed.ok) {
      const attempts = attemptsOf(message);
      await forward(ch, dlqName(queue), message, {
        [REASON_HEADER]: parsed.error.slice(0, 1000),
        [ATTEMPTS_HEADER]: attempts,
        [ORIGINAL_QUEUE_HEADER]: queue,
        [DEAD_LETTERED_AT_HEADER]: new Date().toISOString(),
      });
      settle(ch, message);
      metrics.deadLettered.inc({ queue, reason: parsed.reason });
      metrics.consumed.inc({ queue, type: parsed.type ?? 'unknown', outcome: 'dead_lettered' });
      log.warn({ eventId: parsed.eventId, type: parsed.type, reason: parsed.error }, parsed.reason === 'invalid' ? 'invalid message parked in the DLQ' : 'message of an unsupported version parked in the DLQ');
      return null;
    }
    return parsed.envelope as HandledEvent<EventType>;
  };

  /** One event in its own transaction with its inbox row; a failure goes to a retry queue or the DLQ. */
  const handleEvent = async (ch: ConfirmChannel, message: ConsumeMessage, event: HandledEvent<EventType>): Promise<void> => {
    const attempts = attemptsOf(message);
    const handler = handlers[event.type] as EventHandler<EventType> | undefined;
    const timer = metrics.handlerDuration.startTimer({ queue });
    let outcome: Outcome;
    try {
      outcome = await orm.em.fork().transactional(async (em) => {
        const inserted = await em
          .getConnection()
          .execute<{ affectedRows: number }>(
            `insert into inbox (event_id, consumer, type, processed_at) values (?, ?, ?, now()) on conflict do nothing`,
            [event.id, queue, event.type],
            'run',
            em.getTransactionContext(),
          );
        if (inserted.affectedRows === 0) return 'duplicate';
        await handler?.(em, event);
        return 'handled';
      });
      timer();
    } catch (error) {
      timer();
      const reason = error instanceof Error ? error.message : String(error);
      const exhausted = attempts >= maxAttempts;
      const target = exhausted ? dlqName(queue) : retryQueueName(queue, delays[Math.min(attempts - 1, delays.length - 1)]);
      await forward(ch, target, message, {
        [ATTEMPTS_HEADER]: attempts,
        [LAST_ERROR_HEADER]: reason.slice(0, 1000),
        ...(exhausted ? { [REASON_HEADER]: reason.slice(0, 1000), [ORIGINAL_QUEUE_HEADER]: queue, [DEAD_LETTERED_AT_HEADER]: new Date().toISOString() } : {}),
      });
      settle(ch, message);
      if (exhausted) metrics.deadLettered.inc({ queue, reason: 'exhausted' });
      else metrics.retried.inc({ queue });
      metrics.consumed.inc({ queue, type: event.type, outcome: exhausted ? 'dead_lettered' : 'retried' });
      log.warn({ err: error, eventId: event.id, type: event.type, attempts, target }, exhausted ? 'handler failed; parked in the DLQ' : 'handler failed; will retry');
      return;
    }
    settle(ch, message);
    metrics.consumed.inc({ queue, type: event.type, outcome });
  };

  /**
   * Several events in one transaction (one multi-row inbox insert, handlers one after the other, one
   * commit). If anything fails, the transaction rolls back and each event is handled on its own, so a
   * failing event is retried alone and the others commit.
   */
  const handleBatch = async (ch: ConfirmChannel, messages: ConsumeMessage[]): Promise<void> => {
    const batch: { message: ConsumeMessage; event: HandledEvent<EventType> }[] = [];
    for (const message of messages) {
      const event = await parse(ch, message);
      if (event) batch.push({ message, event });
    }
    if (batch.length <= 1) {
      for (const { message, event } of batch) await handleEvent(ch, message, event);
      return;
    }
    const timer = metrics.handlerDuration.startTimer({ queue });
    let outcomes: Outcome[];
    try {
      outcomes = await orm.em.fork().transactional(async (em) => {
        const inserted = await em
          .getConnection()
          .execute<{ event_id: string }[]>(
            `insert into inbox (event_id, consumer, type, processed_at) values ${batch.map(() => '(?, ?, ?, now())').join(', ')} on conflict do nothing returning event_id`,
            batch.flatMap(({ event }) => [event.id, queue, event.type]),
            'all',
            em.getTransactionContext(),
          );
        const fresh = new Set(inserted.map((row) => row.event_id));
        const results: Outcome[] = [];
        for (const { event } of batch) {
          if (!fresh.delete(event.id)) {
            results.push('duplicate');
            continue;
          }
          await (handlers[event.type] as EventHandler<EventType> | undefined)?.(em, event);
          results.push('handled');
        }
        return results;
      });
      timer();
    } catch (error) {
      timer();
      log.debug({ err: error, size: batch.length }, 'batch failed; handling its events one by one');
      await Promise.all(batch.map(({ message, event }) => handleEvent(ch, message, event)));
      return;
    }
    batch.forEach(({ message, event }, index) => {
      settle(ch, message);
      metrics.consumed.inc({ queue, type: event.type, outcome: outcomes[index] });
    });
  };

  let waiting: { ch: ConfirmChannel; message: ConsumeMessage }[] = [];
  let flushScheduled = false;

  const run = (work: Promise<void>, size: number) => {
    busy += size;
    const settled = work.catch((error: unknown) => {
      log.error({ err: error }, 'could not settle a message; it will be redelivered');
    });
    inFlight.add(settled);
    void settled.finally(() => {
      inFlight.delete(settled);
      busy -= size;
    });
  };

  /** Hands the deliveries that arrived meanwhile to handleBatch, at most `batchSize` at a time. */
  const flush = () => {
    flushScheduled = false;
    const taken = waiting;
    waiting = [];
    for (let i = 0; i < taken.length; i += batchSize) {
      const chunk = taken.slice(i, i + batchSize);
      const ch = chunk[0].ch;
      const same = chunk.filter((entry) => entry.ch === ch).map((entry) => entry.message);
      run(handleBatch(ch, same), same.length);
      const others = chunk.filter((entry) => entry.ch !== ch);
      for (const entry of others) run(handleBatch(entry.ch, [entry.message]), 1);
    }
  };

  const track = (ch: ConfirmChannel, message: ConsumeMessage) => {
    if (batchSize === 1) {
      run((async () => {
        const event = await parse(ch, message);
        if (event) await handleEvent(ch, message, event);
      })(), 1);
      return;
    }
    waiting.push({ ch, message });
    if (waiting.length >= batchSize) flush();
    else if (!flushScheduled) {
      flushScheduled = true;
      setImmediate(flush);
    }
  };

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
    for (const warning of await assertConsumerTopology(connection, { exchange: broker.exchange, queue, types, retryDelaysMs: delays, deliveryLimit })) log.warn(warning);
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
      if (message) track(ch, message);
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
    flush(); // deliveries received before the cancel are handled too
    let graceTimer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...inFlight]),
      new Promise((resolve) => {
        graceTimer = setTimeout(resolve, stopTimeoutMs);
      }),
    ]);
    clearTimeout(graceTimer);
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
  return {
    queue,
    get inFlight() {
      return busy + waiting.length;
    },
    stop,
  };
}
