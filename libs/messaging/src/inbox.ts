import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { EventType } from '@academy/contracts';
import type { EventHandler, EventHandlers, HandledEvent } from './consumer.ts';

export type InboxOutcome = 'handled' | 'duplicate';

/** Records the events in `inbox` for this consumer, in the transaction of `em`; returns the ids new to it (the others were handled before). */
async function recordInInbox(em: EntityManager, consumer: string, events: readonly HandledEvent<EventType>[]): Promise<Set<string>> {
  const inserted = await em
    .getConnection()
    .execute<{ event_id: string }[]>(
      `insert into inbox (event_id, consumer, type, processed_at) values ${events.map(() => '(?, ?, ?, now())').join(', ')} on conflict do nothing returning event_id`,
      events.flatMap((event) => [event.id, consumer, event.type]),
      'all',
      em.getTransactionContext(),
    );
  return new Set(inserted.map((row) => row.event_id));
}

/**
 * One transaction: the events' inbox rows, then the handler of each event new to this consumer, one
 * after the other on the same `em`. Returns one outcome per event; a handler's failure rolls it all back.
 */
export function handleOnce(orm: MikroORM, consumer: string, handlers: EventHandlers, events: readonly HandledEvent<EventType>[]): Promise<InboxOutcome[]> {
  return orm.em.fork().transactional(async (em) => {
    const fresh = await recordInInbox(em, consumer, events);
    const outcomes: InboxOutcome[] = [];
    for (const event of events) {
      if (!fresh.delete(event.id)) {
        outcomes.push('duplicate');
        continue;
      }
      await (handlers[event.type] as EventHandler<EventType> | undefined)?.(em, event);
      outcomes.push('handled');
    }
    return outcomes;
  });
}
