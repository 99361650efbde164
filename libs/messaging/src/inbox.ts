import { TransactionContext, type MikroORM } from '@mikro-orm/postgresql';
import type { QueryResult } from 'pg';
import type { EventType } from '@academy/contracts';
import { beginWith, sqlLiteral } from '@academy/db';
import type { EventHandler, EventHandlers, HandledEvent } from './consumer.ts';

export type InboxOutcome = 'handled' | 'duplicate';

/** Runs one event's handler (`work`), e.g. inside that event's own span. */
export type AroundHandler = (event: HandledEvent<EventType>, work: () => Promise<void>) => Promise<void>;

const direct: AroundHandler = (_event, work) => work();

/**
 * The events' inbox rows for this consumer, values inlined (it goes with the BEGIN, in one message of
 * the simple query protocol, which has no parameters); returns the ids new to this consumer.
 */
function inboxInsert(consumer: string, events: readonly HandledEvent<EventType>[]): string {
  const rows = events.map((event) => `(${sqlLiteral(event.id)}::uuid, ${sqlLiteral(consumer)}, ${sqlLiteral(event.type)}, now())`);
  return `insert into inbox (event_id, consumer, type, processed_at) values ${rows.join(', ')} on conflict do nothing returning event_id`;
}

/**
 * One transaction: the events' inbox rows (sent with the BEGIN, in its round trip), then the handler
 * of each event new to this consumer, one after the other on the same `em`, then the COMMIT. Three
 * round trips for an event whose handler runs one statement, two more per event sharing it. Returns
 * one outcome per event; a handler's failure rolls it all back. While the handlers run, the
 * transaction's `em` is MikroORM's current one (`TransactionContext`, as in `em.transactional`), so a
 * handler reaching the service's global EntityManager works in the transaction too.
 */
export async function handleOnce(
  orm: MikroORM,
  consumer: string,
  handlers: EventHandlers,
  events: readonly HandledEvent<EventType>[],
  around: AroundHandler = direct,
): Promise<InboxOutcome[]> {
  const em = orm.em.fork();
  const [inserted] = (await beginWith(em, inboxInsert(consumer, events))) as [QueryResult<{ event_id: string }>];
  try {
    const fresh = new Set(inserted.rows.map((row) => row.event_id));
    const outcomes: InboxOutcome[] = [];
    await TransactionContext.create(em, async () => {
      for (const event of events) {
        if (!fresh.delete(event.id)) {
          outcomes.push('duplicate');
          continue;
        }
        const handler = handlers[event.type] as EventHandler<EventType> | undefined;
        await around(event, async () => {
          await handler?.(em, event);
        });
        outcomes.push('handled');
      }
    });
    await em.commit();
    return outcomes;
  } catch (error) {
    // A failed handler or a refused COMMIT: the rollback also gives the connection back to the pool.
    await em.rollback().catch(() => undefined);
    throw error;
  }
}
