import { createRequire } from 'node:module';
import {
  AbortedTransactionError,
  Kysely,
  PostgresAdapter,
  PostgresDriver,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type PostgresCursorConstructor,
  type PostgresPool,
  type Transaction,
} from 'kysely';
import type { EntityManager, PostgreSqlConnection } from '@mikro-orm/postgresql';
import pg, { type Pool, type PoolClient, type QueryResult } from 'pg';

// A transaction of an EntityManager on a connection we check out of MikroORM's own `pg` pool
// ourselves, for a write that must be fast (a write with an `Idempotency-Key`, see `@academy/service`):
//  - its first statements go out with BEGIN, and its last with COMMIT, each pair in one round trip
//    (PostgreSQL's simple query protocol takes several statements in one message; their values are
//    inlined as literals, `sqlLiteral`);
//  - `Sql` reaches the connection underneath (`clientOf`), so its statements stay named prepared
//    statements, planned once per connection, inside the transaction as outside.
// MikroORM sees an ordinary Kysely transaction as the EntityManager's transaction context: its
// flushes, `em.commit()`, `em.rollback()` and savepoints work as with `em.begin()`.

/** MikroORM's own `pg-cursor` (its dialect streams with it), so `em.stream()` works in such a transaction too. */
const Cursor = createRequire(import.meta.resolve('@mikro-orm/postgresql'))('pg-cursor') as PostgresCursorConstructor;

/** Kysely's PostgreSQL driver on one connection already in a transaction. */
class ClientDriver extends PostgresDriver {
  /** Sent with the COMMIT, in its round trip. */
  lastStatements: string | null = null;
  readonly client: PoolClient;

  constructor(client: PoolClient, pool: Pool) {
    // Kysely "acquires" the one connection; releasing it gives it back to MikroORM's pool (or closes it after a failed rollback).
    // (`Client`, pg-pool's client class, is what Kysely cancels a query with.)
    const { Client } = pool as Pool & Pick<PostgresPool, 'Client'>;
    const single: PostgresPool = { connect: async () => client, end: async () => undefined, options: pool.options, Client };
    super({ pool: single, cursor: Cursor });
    this.client = client;
  }

  /** BEGIN went out with the first statements. */
  override async beginTransaction(): Promise<void> {}

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.lastStatements === null) return super.commitTransaction(connection);
    // A statement that fails stops the message before the COMMIT: the transaction stays open (and aborted) for the rollback.
    const results = (await this.client.query(`${this.lastStatements};\ncommit`)) as unknown as QueryResult[];
    // PostgreSQL completes COMMIT with a ROLLBACK tag when an earlier statement had aborted the transaction.
    if (results.at(-1)?.command === 'ROLLBACK') throw new AbortedTransactionError();
  }

  /** The pool is MikroORM's. */
  override async destroy(): Promise<void> {}
}

/** The transactions opened by `beginWith`, with their driver. */
const opened = new WeakMap<object, ClientDriver>();

/** One driver and Kysely per pooled connection, made at its first `beginWith` and reused at the next (a connection serves one transaction at a time). */
const onConnection = new WeakMap<PoolClient, { driver: ClientDriver; db: Kysely<unknown> }>();

function kyselyOn(client: PoolClient, pool: Pool): { driver: ClientDriver; db: Kysely<unknown> } {
  let made = onConnection.get(client);
  if (!made) {
    const driver = new ClientDriver(client, pool);
    const db = new Kysely<unknown>({
      dialect: {
        createAdapter: () => new PostgresAdapter(),
        createDriver: () => driver,
        createIntrospector: (kysely) => new PostgresIntrospector(kysely),
        createQueryCompiler: () => new PostgresQueryCompiler(),
      },
    });
    made = { driver, db };
    onConnection.set(client, made);
  }
  made.driver.lastStatements = null;
  return made;
}

/**
 * Opens a transaction as `em`'s transaction context, on a connection of its pool, sending `first`
 * (one or more statements, values inlined with `sqlLiteral`) with the BEGIN in one round trip.
 * Returns the results of those statements, in order. It ends with `em.commit()` or `em.rollback()`.
 */
export async function beginWith(em: EntityManager, first: string): Promise<QueryResult[]> {
  const pool = await (em.getConnection() as PostgreSqlConnection).getNativeClient();
  const client = await pool.connect();
  let results: QueryResult[];
  let trx: Transaction<unknown>;
  try {
    results = (await client.query(`begin;\n${first}`)) as unknown as QueryResult[];
    const { driver, db } = kyselyOn(client, pool);
    trx = await db.startTransaction().execute();
    opened.set(trx, driver);
  } catch (error) {
    // Its transaction may be open: the connection is closed rather than given back.
    client.release(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
  em.setTransactionContext(trx);
  return results.slice(1);
}

/** `last` (statements, values inlined) goes with the COMMIT of `em`'s transaction (opened by `beginWith`), in its round trip. */
export function commitWith(em: EntityManager, last: string): void {
  const driver = opened.get(em.getTransactionContext() as object);
  if (!driver) throw new Error('commitWith: the EntityManager has no transaction opened by beginWith');
  driver.lastStatements = last;
}

/** The connection under a transaction opened by `beginWith`. */
export function clientOf(trx: object): PoolClient | undefined {
  return opened.get(trx)?.client;
}

/** A value as an SQL literal, for statements sent with BEGIN or COMMIT (the simple query protocol has no parameters). */
export function sqlLiteral(value: string | number | Date | null): string {
  if (value === null) return 'null';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`sqlLiteral: ${value} is not a finite number`);
    return String(value);
  }
  if (value instanceof Date) return `${pg.escapeLiteral(value.toISOString())}::timestamptz`;
  return pg.escapeLiteral(value);
}
