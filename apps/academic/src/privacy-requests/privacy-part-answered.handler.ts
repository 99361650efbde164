import type { EntityManager } from '@mikro-orm/postgresql';
import type { HandledEvent } from '@academy/messaging';
import type { Clock } from '@academy/kit';
import { audit, recordAnswer } from './privacy-requests.store.ts';

/**
 * A service answered its part: recorded once on the request (a redelivered or replayed answer
 * changes nothing), audited, and the request completes when no part is pending.
 */
export const onPrivacyPartAnswered =
  (clock: Clock) =>
  async (em: EntityManager, event: HandledEvent<'privacy.part.answered'>): Promise<void> => {
    const now = clock.now();
    const { recorded, status } = await recordAnswer(em, event.data, now);
    if (!recorded) return;
    await audit(em, event.data.requestId, `answered by ${event.data.service}`, null, now, event.data.status);
    if (status) await audit(em, event.data.requestId, status, null, now);
  };
