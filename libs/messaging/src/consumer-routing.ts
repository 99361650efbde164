import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { ParsedEnvelope } from '@academy/contracts';
import type { Logger } from '@academy/kit';
import type { MessagingMetrics } from './metrics.ts';
import { ATTEMPTS_HEADER, DEAD_LETTERED_AT_HEADER, LAST_ERROR_HEADER, ORIGINAL_QUEUE_HEADER, REASON_HEADER, copyToQueue, dlqName, retryQueueName } from './topology.ts';

/** Where a consumer's failed deliveries go: its retry queues, then its DLQ. */
export interface FailureRouting {
  queue: string;
  maxAttempts: number;
  retryDelaysMs: number[];
  metrics: MessagingMetrics;
  log: Logger;
}

const STRIPPED_HEADERS = ['x-delivery-count'];

/** This delivery's attempt, counting the retries recorded in its headers. */
export function attemptsOf(message: ConsumeMessage): number {
  return Number(message.properties.headers?.[ATTEMPTS_HEADER] ?? 0) + 1;
}

export function acknowledge(ch: ConfirmChannel, message: ConsumeMessage, log: Logger): void {
  // On a closed channel the ack cannot be sent: the broker redelivers and the inbox makes it a no-op.
  try {
    ch.ack(message);
  } catch (error) {
    log.debug({ err: error }, 'ack not sent; the message will be redelivered');
  }
}

function forward(ch: ConfirmChannel, target: string, message: ConsumeMessage, headers: Record<string, unknown>): Promise<void> {
  return copyToQueue(ch, target, message, STRIPPED_HEADERS, headers);
}

/**
 * An invalid message, or one of a version this consumer does not read, goes to the DLQ at once: no retry can fix it.
 * A retired twin (a version published only beside the current one, see `retiredTwinVersions`) is acknowledged and
 * counted as `retired`, its data never read nor kept.
 */
export async function parkUnreadable(ch: ConfirmChannel, message: ConsumeMessage, parsed: Extract<ParsedEnvelope, { ok: false }>, routing: FailureRouting): Promise<void> {
  const { queue, metrics, log } = routing;
  if (parsed.reason === 'retired_twin') {
    acknowledge(ch, message, log);
    metrics.consumed.inc({ queue, type: parsed.type, outcome: 'retired' });
    log.debug({ eventId: parsed.eventId, type: parsed.type }, parsed.error);
    return;
  }
  await forward(ch, dlqName(queue), message, {
    [REASON_HEADER]: parsed.error.slice(0, 1000),
    [ATTEMPTS_HEADER]: attemptsOf(message),
    [ORIGINAL_QUEUE_HEADER]: queue,
    [DEAD_LETTERED_AT_HEADER]: new Date().toISOString(),
  });
  acknowledge(ch, message, log);
  metrics.deadLettered.inc({ queue, reason: parsed.reason });
  metrics.consumed.inc({ queue, type: parsed.type ?? 'unknown', outcome: 'dead_lettered' });
  log.warn({ eventId: parsed.eventId, type: parsed.type, reason: parsed.error }, parsed.reason === 'invalid' ? 'invalid message parked in the DLQ' : 'message of an unsupported version parked in the DLQ');
}

/** A failed handler: the next retry queue, or the DLQ once `maxAttempts` are spent. */
export async function retryOrPark(ch: ConfirmChannel, message: ConsumeMessage, event: { id: string; type: string }, error: unknown, routing: FailureRouting): Promise<void> {
  const { queue, maxAttempts, retryDelaysMs: delays, metrics, log } = routing;
  const attempts = attemptsOf(message);
  const reason = error instanceof Error ? error.message : String(error);
  const exhausted = attempts >= maxAttempts;
  const target = exhausted ? dlqName(queue) : retryQueueName(queue, delays[Math.min(attempts - 1, delays.length - 1)]);
  await forward(ch, target, message, {
    [ATTEMPTS_HEADER]: attempts,
    [LAST_ERROR_HEADER]: reason.slice(0, 1000),
    ...(exhausted ? { [REASON_HEADER]: reason.slice(0, 1000), [ORIGINAL_QUEUE_HEADER]: queue, [DEAD_LETTERED_AT_HEADER]: new Date().toISOString() } : {}),
  });
  acknowledge(ch, message, log);
  if (exhausted) metrics.deadLettered.inc({ queue, reason: 'exhausted' });
  else metrics.retried.inc({ queue });
  metrics.consumed.inc({ queue, type: event.type, outcome: exhausted ? 'dead_lettered' : 'retried' });
  log.warn({ err: error, eventId: event.id, type: event.type, attempts, target }, exhausted ? 'handler failed; parked in the DLQ' : 'handler failed; will retry');
}
