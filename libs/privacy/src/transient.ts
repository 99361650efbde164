import type { EntityManager } from '@mikro-orm/postgresql';

/** `%`, `_` and `\` of a value taken literally in a LIKE pattern. */
const likeLiteral = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * An erasure also forgets what the service's technical stores still hold about the person and would
 * otherwise keep until their own retention: the published events of its outbox (pruned 7 days after
 * publishing) and the stored replies of keyed writes (`idempotency_keys`, replayed until they expire)
 * whose text names one of `identifiers` (the person's e-mail). An event not yet published stays: it
 * must still go out. A table the service does not have is skipped. Answers how many rows went.
 */
export async function forgetTransientRecords(em: EntityManager, identifiers: readonly string[]): Promise<number> {
  const patterns = identifiers.filter((value) => value.trim().length >= 3).map((value) => `%${likeLiteral(value)}%`);
  if (patterns.length === 0) return 0;
  const run = (sql: string) => em.getConnection().execute<{ n: number }[]>(sql, [`{${patterns.map((p) => JSON.stringify(p)).join(',')}}`], 'all', em.getTransactionContext());
  const [tables] = await em.getConnection().execute<{ outbox: boolean; keys: boolean }[]>(
    `select to_regclass('outbox') is not null as outbox, to_regclass('idempotency_keys') is not null as keys`,
    [],
    'all',
    em.getTransactionContext(),
  );
  let forgotten = 0;
  if (tables!.outbox) forgotten += (await run(`with gone as (delete from outbox o where o.published_at is not null and o.envelope::text ilike any(?::text[]) returning 1) select count(*)::int as n from gone`))[0]!.n;
  if (tables!.keys) forgotten += (await run(`with gone as (delete from idempotency_keys k where k::text ilike any(?::text[]) returning 1) select count(*)::int as n from gone`))[0]!.n;
  return forgotten;
}
