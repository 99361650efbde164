import amqp, { type GetMessage } from 'amqplib';
import { carrierOfSpan, inSpan, linkFromCarrier, SpanKind } from '@academy/kit';
import { SOCKET_OPTIONS } from './socket.ts';
import { ATTEMPTS_HEADER, DEAD_LETTERED_AT_HEADER, LAST_ERROR_HEADER, ORIGINAL_QUEUE_HEADER, ORIGINAL_TRACEPARENT_HEADER, REASON_HEADER, REPLAYED_AT_HEADER, copyToQueue, dlqName } from './topology.ts';

/** Retry bookkeeping dropped on replay, so the handler gets its full retries again. */
const REPLAY_DROPPED_HEADERS = [
  ATTEMPTS_HEADER,
  REASON_HEADER,
  LAST_ERROR_HEADER,
  DEAD_LETTERED_AT_HEADER,
  ORIGINAL_QUEUE_HEADER,
  'x-death',
  'x-delivery-count',
  'x-first-death-exchange',
  'x-first-death-queue',
  'x-first-death-reason',
];

export interface DeadLetter {
  /** Position in the DLQ, from 1. */
  position: number;
  eventId: string | null;
  type: string | null;
  reason: string | null;
  attempts: number | null;
  originalQueue: string | null;
  deadLetteredAt: string | null;
  headers: Record<string, unknown>;
  body: string;
}

export interface ReplayResult {
  replayed: number;
  kept: number;
}

/** `<service>.<purpose>` or its DLQ name: both designate the same pair. */
const queuesOf = (queue: string) => {
  const base = queue.endsWith('.dlq') ? queue.slice(0, -'.dlq'.length) : queue;
  return { queue: base, dlq: dlqName(base) };
};

function describe(message: GetMessage, position: number): DeadLetter {
  const headers = (message.properties.headers ?? {}) as Record<string, unknown>;
  const deaths = headers['x-death'] as { reason?: string }[] | undefined;
  const text = (value: unknown) => (value === undefined || value === null ? null : Buffer.isBuffer(value) ? value.toString() : String(value));
  const body = message.content.toString('utf8');
  let envelope: { id?: unknown; type?: unknown } = {};
  try {
    envelope = JSON.parse(body) ?? {};
  } catch {
    // Not JSON: it was parked for exactly that reason.
  }
  return {
    position,
    eventId: text(message.properties.messageId) ?? (typeof envelope.id === 'string' ? envelope.id : null),
    type: text(message.properties.type) ?? (typeof envelope.type === 'string' ? envelope.type : null),
    // A message parked by the broker (delivery limit) carries x-death instead of our reason.
    reason: text(headers[REASON_HEADER]) ?? (deaths?.[0]?.reason ? `broker: ${deaths[0].reason}` : null),
    attempts: headers[ATTEMPTS_HEADER] === undefined ? null : Number(headers[ATTEMPTS_HEADER]),
    originalQueue: text(headers[ORIGINAL_QUEUE_HEADER]),
    deadLetteredAt: text(headers[DEAD_LETTERED_AT_HEADER]),
    headers,
    body,
  };
}

/**
 * Reads every message of `<queue>.dlq` without removing it: the messages are fetched unacked and
 * handed back when the channel closes. AMQP only (no management plugin needed).
 */
export async function listDeadLetters(url: string, queue: string, options: { limit?: number } = {}): Promise<DeadLetter[]> {
  const { dlq } = queuesOf(queue);
  const connection = await amqp.connect(url, SOCKET_OPTIONS);
  connection.on('error', () => undefined); // a missing queue closes the channel; the awaited call reports it
  try {
    const channel = await connection.createChannel();
    const { messageCount } = await channel.checkQueue(dlq);
    const limit = Math.min(messageCount, options.limit ?? Infinity);
    const letters: DeadLetter[] = [];
    for (let position = 1; position <= limit; position++) {
      const message = await channel.get(dlq, { noAck: false });
      if (!message) break;
      letters.push(describe(message, position));
    }
    await channel.close();
    return letters;
  } finally {
    await connection.close().catch(() => undefined);
  }
}

/**
 * Moves messages from `<queue>.dlq` back to `<queue>` (all, or those whose event id is listed),
 * with the attempt count reset so the handler gets its full retries again. Each one is removed from
 * the DLQ only after the broker confirmed its copy; the rest stay where they were.
 *
 * Traced (the CLI preloads the telemetry), the replay is a trace of its own, linked to each message's
 * original trace; each copy carries the replay's `traceparent` and its original one as
 * `x-original-traceparent`, to which the consumer's span links. Untraced, a copy keeps its headers
 * and the consumer continues the original trace.
 */
export function replayDeadLetters(url: string, queue: string, options: { eventIds?: string[]; limit?: number } = {}): Promise<ReplayResult> {
  return inSpan(`dlq replay ${queue}`, { kind: SpanKind.PRODUCER, root: true, attributes: { 'messaging.system': 'rabbitmq', 'messaging.destination.name': queue } }, async (span) => {
    const replay = carrierOfSpan(span);
    const result = await replayEach(url, queue, options, (message) => {
      const original = message.properties.headers?.traceparent as string | undefined;
      const link = linkFromCarrier(message.properties.headers, { 'messaging.message.id': String(message.properties.messageId) });
      if (link) span.addLink(link);
      return replay ? { ...replay, ...(original ? { [ORIGINAL_TRACEPARENT_HEADER]: original } : {}) } : {};
    });
    span.setAttributes({ 'academy.dlq.replayed': result.replayed, 'academy.dlq.kept': result.kept });
    return result;
  });
}

async function replayEach(url: string, queue: string, options: { eventIds?: string[]; limit?: number }, traceHeaders: (message: GetMessage) => Record<string, string>): Promise<ReplayResult> {
  const { queue: target, dlq } = queuesOf(queue);
  const wanted = options.eventIds?.length ? new Set(options.eventIds) : null;
  const connection = await amqp.connect(url, SOCKET_OPTIONS);
  connection.on('error', () => undefined); // a missing queue closes the channel; the awaited call reports it
  try {
    const channel = await connection.createConfirmChannel();
    await channel.checkQueue(target);
    const { messageCount } = await channel.checkQueue(dlq);
    const limit = options.limit ?? Infinity;
    const result: ReplayResult = { replayed: 0, kept: 0 };
    for (let seen = 0; seen < messageCount && result.replayed < limit; seen++) {
      const message = await channel.get(dlq, { noAck: false });
      if (!message) break;
      if (wanted && !wanted.has(String(message.properties.messageId))) {
        result.kept++;
        continue;
      }
      await copyToQueue(channel, target, message, REPLAY_DROPPED_HEADERS, { [REPLAYED_AT_HEADER]: new Date().toISOString(), ...traceHeaders(message) });
      channel.ack(message);
      result.replayed++;
    }
    await channel.close();
    return result;
  } finally {
    await connection.close().catch(() => undefined);
  }
}
