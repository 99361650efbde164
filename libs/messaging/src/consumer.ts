import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { parseEnvelope, type EventData, type EventType, type EventVersions } from '@academy/contracts';
import { contextFromCarrier, inSpan, linkFromCarrier, markSpanError, SpanKind, type SpanOptions } from '@academy/kit';
import type { Broker } from './broker.ts';
import { keepConsuming } from './consumer-channel.ts';
import { createDispatcher } from './consumer-dispatch.ts';
import { acknowledge, attemptsOf, parkUnreadable, retryOrPark, type FailureRouting } from './consumer-routing.ts';
import { handleOnce } from './inbox.ts';
import { assertQueueName, dlqName, ORIGINAL_TRACEPARENT_HEADER, PUBLISHED_AT_HEADER, REPLAYED_AT_HEADER } from './topology.ts';

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
   * Up to this many first deliveries already waiting (none is waited for) are handled in one
   * transaction: one inbox insert, the handlers one after the other, one commit. A failure rolls the
   * batch back and its events are handled one by one; a redelivered or retried message is always
   * handled alone. Default 10; 1: each event in its own transaction (handlers that make slow calls
   * outside, which a batch would run one after the other).
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

/** Waiting first deliveries handled in one transaction by a consumer that names no `batchSize`. */
export const DEFAULT_BATCH_SIZE = 10;

/** Retry delays of a consumer that names none: a retry queue `<queue>.retry.<ms>ms` each. */
export const DEFAULT_RETRY_DELAYS_MS = [1000, 5000, 30000];

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
  const retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const deliveryLimit = options.deliveryLimit ?? 20;
  const stopTimeoutMs = options.stopTimeoutMs ?? 30_000;
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!(prefetch > 0 && maxAttempts > 0 && batchSize > 0 && retryDelaysMs.length > 0 && retryDelaysMs.every((delay) => delay > 0))) {
    throw new Error('consume: prefetch, maxAttempts, batchSize and every retry delay must be positive, with at least one delay');
  }
  const { metrics, logger } = broker;
  const log = logger.child({ queue });
  const routing: FailureRouting = { queue, maxAttempts, retryDelaysMs, metrics, log };

  /** The envelope, or null when it could not be read (then it is parked in the DLQ). */
  const parse = async (ch: ConfirmChannel, message: ConsumeMessage): Promise<HandledEvent<EventType> | null> => {
    const parsed = parseEnvelope(message.content, options.versions);
    if (parsed.ok) return parsed.envelope as HandledEvent<EventType>;
    await parkUnreadable(ch, message, parsed, routing);
    return null;
  };

  /**
   * One event in its own transaction with its inbox row; a failure goes to a retry queue or the DLQ.
   * Its span continues the trace the message carries (the writer's, through the relay's publish), on
   * every attempt: a retry is another child of the same publish.
   */
  const handleEvent = (ch: ConfirmChannel, message: ConsumeMessage, event: HandledEvent<EventType>): Promise<void> =>
    inSpan(`process ${event.type}`, deliverySpan(queue, message, event), async (span) => {
      const timer = metrics.handlerDuration.startTimer({ queue });
      let outcome: string;
      try {
        [outcome] = await handleOnce(orm, queue, handlers, [event]);
        timer();
      } catch (error) {
        timer();
        markSpanError(span, error);
        await retryOrPark(ch, message, event, error, routing);
        return;
      }
      span.setAttribute('academy.inbox.outcome', outcome);
      acknowledge(ch, message, log);
      metrics.consumed.inc({ queue, type: event.type, outcome });
      observeDelay(message);
    });

  /**
   * Several events in one transaction (one multi-row inbox insert with the BEGIN, handlers one after
   * the other, one commit), each handler in its event's own span (a child of its message's context,
   * as alone). If anything fails, the transaction rolls back and each event is handled on its own, so
   * a failing event is retried alone and the others commit. Only first deliveries share a
   * transaction: a redelivered or retried message (it failed, or its consumer died, before) is
   * handled alone, so that it never takes others down with it again.
   */
  const handleDeliveries = async (ch: ConfirmChannel, messages: ConsumeMessage[]): Promise<void> => {
    const batch: { message: ConsumeMessage; event: HandledEvent<EventType> }[] = [];
    const alone: Promise<void>[] = [];
    for (const message of messages) {
      const event = await parse(ch, message);
      if (!event) continue;
      if (messages.length > 1 && (message.fields.redelivered || attemptsOf(message) > 1)) alone.push(handleEvent(ch, message, event));
      else batch.push({ message, event });
    }
    if (batch.length <= 1) {
      for (const { message, event } of batch) await handleEvent(ch, message, event);
      await Promise.all(alone);
      return;
    }
    const messageOf = new Map(batch.map(({ message, event }) => [event, message]));
    const timer = metrics.handlerDuration.startTimer({ queue });
    let outcomes: string[];
    try {
      outcomes = await handleOnce(
        orm,
        queue,
        handlers,
        batch.map(({ event }) => event),
        (event, work) => {
          const options = deliverySpan(queue, messageOf.get(event)!, event);
          return inSpan(`process ${event.type}`, { ...options, attributes: { ...options.attributes, 'messaging.batch.message_count': batch.length } }, work);
        },
      );
      timer();
    } catch (error) {
      timer();
      log.debug({ err: error, size: batch.length }, 'batch failed; handling its events one by one');
      await Promise.all([...batch.map(({ message, event }) => handleEvent(ch, message, event)), ...alone]);
      return;
    }
    batch.forEach(({ message, event }, index) => {
      acknowledge(ch, message, log);
      metrics.consumed.inc({ queue, type: event.type, outcome: outcomes[index] });
      observeDelay(message);
    });
    await Promise.all(alone);
  };

  /** Publish (or replay) → handled, for `messaging_delivery_delay_seconds`; a message without the header is not observed. */
  const observeDelay = (message: ConsumeMessage) => {
    const since = sentAtOf(message);
    if (since !== null) metrics.deliveryDelay.observe({ queue }, Math.max(0, Date.now() - since) / 1000);
  };

  const dispatcher = createDispatcher(batchSize, handleDeliveries, log);
  const stop = await keepConsuming(
    broker,
    { queue, types: Object.keys(handlers), retryDelaysMs, deliveryLimit, prefetch, log },
    (ch, message) => dispatcher.deliver(ch, message),
    () => dispatcher.drain(stopTimeoutMs),
  );
  const dlq = { queue, depth: () => broker.queueDepth(dlqName(queue)) };
  metrics.dlqSources.add(dlq);
  return {
    queue,
    get inFlight() {
      return dispatcher.inFlight;
    },
    stop: async () => {
      metrics.dlqSources.delete(dlq);
      await stop();
    },
  };
}

const headersOf = (message: ConsumeMessage) => (message.properties.headers ?? {}) as Record<string, unknown>;

/** When the message was last sent on its way: the replay's time for a copy replayed from the DLQ, else the relay's publish. */
function sentAtOf(message: ConsumeMessage): number | null {
  const headers = headersOf(message);
  const replayedAt = typeof headers[REPLAYED_AT_HEADER] === 'string' ? Date.parse(headers[REPLAYED_AT_HEADER]) : NaN;
  if (Number.isFinite(replayedAt)) return replayedAt;
  const publishedAt = Number(headers[PUBLISHED_AT_HEADER]);
  return Number.isFinite(publishedAt) && publishedAt > 0 ? publishedAt : null;
}

/**
 * A delivery's span: a child of the context its headers carry, linked to the original trace when
 * the message was replayed from the DLQ (the replay's headers name it).
 */
function deliverySpan(queue: string, message: ConsumeMessage, event: HandledEvent<EventType>): SpanOptions {
  const headers = headersOf(message);
  const original = linkFromCarrier({ traceparent: headers[ORIGINAL_TRACEPARENT_HEADER] }, { 'academy.link': 'replayed from the DLQ' });
  return {
    kind: SpanKind.CONSUMER,
    parent: contextFromCarrier(headers),
    links: original ? [original] : undefined,
    attributes: {
      'messaging.system': 'rabbitmq',
      'messaging.operation.type': 'process',
      'messaging.destination.name': queue,
      'messaging.message.id': event.id,
      'messaging.message.conversation_id': event.correlationId,
      'messaging.rabbitmq.attempt': attemptsOf(message),
    },
  };
}
