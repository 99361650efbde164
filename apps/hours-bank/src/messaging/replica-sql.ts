import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Replica writes are upserts by id that apply only when the event is not older than what the row
 * already reflects (`source_version` = the event's `occurredAt`), so redelivered or out-of-order
 * events are harmless.
 */
export async function runReplicaSql(em: EntityManager, sql: string, params: unknown[]): Promise<void> {
  await em.getConnection().execute(sql, params, 'run', em.getTransactionContext());
}
