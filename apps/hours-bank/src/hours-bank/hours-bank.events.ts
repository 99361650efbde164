import type { Actor } from '@academy/auth';
import { createEnvelope, type EventData, type EventEnvelope } from '@academy/contracts';

export const SOURCE = 'hours-bank';

type HoursEvent = 'hours-bank.transaction.recorded' | 'hours-bank.transaction.reverted';

/**
 * The envelope (built and validated by `createEnvelope`) is written to the outbox by the very
 * statement that makes the change it reports (`hours-bank.store.ts`), so both commit together and
 * the bank lock is held for no extra round trip.
 */
export function hoursEvent<T extends HoursEvent>(type: T, data: EventData<T>, actor: Actor): EventEnvelope {
  return createEnvelope(type, data, { source: SOURCE, correlationId: actor.correlationId });
}
