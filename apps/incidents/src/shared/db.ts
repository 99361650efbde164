import type { MikroORM, PostgreSqlConnection } from '@mikro-orm/postgresql';
import type { Pool, PoolClient } from 'pg';

/** Runs one SQL statement (`$1…` placeholders) and returns its rows. */
export type Query = <T>(text: string, values?: unknown[]) => Promise<T[]>;

/**
 * The write and read paths are plain SQL on MikroORM's own `pg` pool: each rule is one statement
 * (a CTE that checks, inserts and writes its outbox row together), so a request holds no lock
 * across a round trip. Statements are prepared once per connection (named by their text).
 */
export class Database {
  private pool: Pool | null = null;
  private readonly orm: MikroORM;
  private readonly names = new Map<string, string>();

  constructor(orm: MikroORM) {
    this.orm = orm;
  }

  private async getPool(): Promise<Pool> {
    this.pool ??= await (this.orm.em.getConnection() as PostgreSqlConnection).getNativeClient();
    return this.pool;
  }

  private nameOf(text: string): string {
    let name = this.names.get(text);
    if (name === undefined) {
      name = `incidents.${this.names.size + 1}`;
      this.names.set(text, name);
    }
    return name;
  }

  private run = async <T>(client: Pool | PoolClient, text: string, values: unknown[]): Promise<T[]> => {
    const result = await client.query({ name: this.nameOf(text), text, values });
    return result.rows as T[];
  };

  /** One statement, its own transaction. */
  readonly query: Query = async (text, values = []) => this.run(await this.getPool(), text, values);

  /** Several statements in one transaction (committed when `work` resolves, rolled back when it throws). */
  async transaction<T>(work: (query: Query) => Promise<T>): Promise<T> {
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
}

/** A timestamptz column as an ISO 8601 UTC string (`…T…Z`, milliseconds). */
export const isoSql = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
