import { createHash } from 'node:crypto';
import { CompiledQuery, type Transaction } from 'kysely';
import type { EntityManager, PostgreSqlConnection } from '@mikro-orm/postgresql';
import type { Pool, PoolClient } from 'pg';
import { clientOf } from './client-transaction.ts';
import { currentEntityManagerIfAny } from './request-scope.ts';

/** Runs one SQL statement (`$1…` placeholders) and returns its rows. */
export type Query = <T>(text: string, values?: unknown[]) => Promise<T[]>;

const numberedTexts = new Map<string, string>();

/**
 * `?` placeholders (MikroORM's `em.execute`) as `$1…` (`Sql`), converted once per text. For
 * statements written with `?` that run as prepared statements; a text with `?` operators (jsonb)
 * cannot use it.
 */
export function numberedPlaceholders(text: string): string {
  let numbered = numberedTexts.get(text);
  if (numbered === undefined) {
    let index = 0;
    numbered = text.replace(/\?/g, () => `$${++index}`);
    numberedTexts.set(text, numbered);
  }
  return numbered;
}

/** Prepared statements are named by their text, so every `Sql` of a process agrees on the names. */
const statementNames = new Map<string, string>();
let savepoints = 0;

/**
 * Plain SQL on MikroORM's own `pg` pool, for write and read paths written as one statement each
 * (a CTE that checks, changes and writes its outbox row together): statements are prepared once per
 * connection (named by their text).
 *
 * Inside a request whose EntityManager carries a transaction (a write with an `Idempotency-Key`,
 * see `@academy/service`), statements join that transaction instead, and `transaction()` becomes a
 * savepoint in it: the write and the key commit together. On a transaction opened by `beginWith`
 * they run on its connection as named prepared statements too (planned once per connection, not on
 * every request); on another one (`em.begin()`), as unnamed statements through Kysely.
 */
export class Sql {
  private pool: Pool | null = null;
  private readonly em: EntityManager;

  /** `em`: the service's (global) EntityManager, which resolves to the current request's. */
  constructor(em: EntityManager) {
    this.em = em;
  }

  private async getPool(): Promise<Pool> {
    this.pool ??= await (this.em.getConnection() as PostgreSqlConnection).getNativeClient();
    return this.pool;
  }

  /** The transaction of the current request's EntityManager, if it has one. */
  private ambient(): Transaction<unknown> | undefined {
    // Without making the request's EntityManager when nothing did yet (then no transaction is open).
    return currentEntityManagerIfAny(this.em)?.getTransactionContext<Transaction<unknown>>();
  }

  private nameOf(text: string): string {
    let name = statementNames.get(text);
    if (name === undefined) {
      name = `s_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
      statementNames.set(text, name);
    }
    return name;
  }

  private readonly run = async <T>(client: Pool | PoolClient, text: string, values: unknown[]): Promise<T[]> => {
    const result = await client.query({ name: this.nameOf(text), text, values });
    return result.rows as T[];
  };

  private readonly inTransaction = (trx: Transaction<unknown>): Query => {
    const client = clientOf(trx);
    if (client) return (text, values = []) => this.run(client, text, values);
    return async <T>(text: string, values: unknown[] = []) => (await trx.executeQuery(CompiledQuery.raw(text, values))).rows as T[];
  };

  /** One statement, its own transaction (or a part of the request's). */
  readonly query: Query = async (text, values = []) => {
    const trx = this.ambient();
    if (trx) return this.inTransaction(trx)(text, values);
    return this.run(await this.getPool(), text, values);
  };

  /** Several statements in one transaction (committed when `work` resolves, rolled back when it throws). */
  async transaction<T>(work: (query: Query) => Promise<T>): Promise<T> {
    const trx = this.ambient();
    if (trx) return this.savepoint(trx, work);
    const client = await (await this.getPool()).connect();
    try {
      await client.query('begin');
      const result = await work((text, values = []) => this.run(client, text, values));
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  private async savepoint<T>(trx: Transaction<unknown>, work: (query: Query) => Promise<T>): Promise<T> {
    const name = `sql_${++savepoints}`;
    // Unnamed: each savepoint's text is new, and would otherwise stay prepared on the connection.
    const command = async (text: string) => {
      await trx.executeQuery(CompiledQuery.raw(text));
    };
    await command(`savepoint ${name}`);
    try {
      const result = await work(this.inTransaction(trx));
      await command(`release savepoint ${name}`);
      return result;
    } catch (error) {
      await command(`rollback to savepoint ${name}`).catch(() => undefined);
      throw error;
    }
  }
}
