import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import pg from 'pg';
import type { MikroORM, PostgreSqlConnection } from '@mikro-orm/postgresql';
import { defineEntity, p } from '@mikro-orm/postgresql';
import { testUrls, uniqueName } from '@academy/testing';
import { createOrm, DEFAULT_POOL_IDLE_TIMEOUT_MS, DEFAULT_POOL_MIN, dropDatabase, ensureDatabase, Sql } from '../src/index.ts';

const Thing = defineEntity({ name: 'Thing', properties: { id: p.integer().primary() } });
const poolOf = async (orm: MikroORM) => (orm.em.getConnection() as PostgreSqlConnection).getNativeClient();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('createOrm: the pool keeps a minimum of warm connections', () => {
  const url = `${testUrls.postgres}/${uniqueName('t_db_pool')}`;
  let admin: pg.Client;
  /** The backends connected to the test's database, by pid (the admin's own excluded). */
  const backends = async () =>
    (await admin.query<{ pid: number }>(`select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() order by pid`, [new URL(url).pathname.slice(1)])).rows.map((row) => row.pid);

  beforeAll(async () => {
    await ensureDatabase(url);
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await dropDatabase(url);
  });

  test('by default it opens its minimum at start and closes connections above it only after a minute idle (pg-pool closed every idle one after 10 s)', async () => {
    const orm = await createOrm({ clientUrl: url, entities: [Thing], migrations: [] });
    try {
      const pool = await poolOf(orm);
      expect(DEFAULT_POOL_MIN).toBeGreaterThan(0);
      expect(pool.totalCount).toBe(DEFAULT_POOL_MIN);
      expect(await backends()).toHaveLength(DEFAULT_POOL_MIN);
      expect(pool.options.min).toBe(DEFAULT_POOL_MIN);
      expect(DEFAULT_POOL_IDLE_TIMEOUT_MS).toBe(60_000);
      expect(pool.options.idleTimeoutMillis).toBe(DEFAULT_POOL_IDLE_TIMEOUT_MS);
    } finally {
      await orm.close(true);
    }
  });

  test('after idling past the idle timeout it still holds its minimum: the same backends, their prepared statements still there', async () => {
    // A short timeout stands for the old 10 s: the mechanism is the same, the test does not wait 10 s.
    const orm = await createOrm({ clientUrl: url, entities: [Thing], migrations: [], poolMin: 2, poolMax: 6, idleTimeoutMs: 200 });
    try {
      const pool = await poolOf(orm);
      const sql = new Sql(orm.em);
      // A burst: six statements at once take the pool to its maximum, each connection preparing the statement.
      const burst = await Promise.all(Array.from({ length: 6 }, () => sql.query<{ pid: number }>('select pg_sleep(0.2), pg_backend_pid() as pid')));
      expect(new Set(burst.map(([row]) => row!.pid)).size).toBe(6);
      await sleep(1_000);
      expect(pool.totalCount).toBe(2);
      const kept = await backends();
      expect(kept).toHaveLength(2);
      // Both kept connections still have the statement prepared: a query on each plans nothing again.
      const held = await Promise.all([pool.connect(), pool.connect()]);
      try {
        const prepared = await Promise.all(
          held.map(async (client) => (await client.query<{ count: number }>(`select count(*)::int as count from pg_prepared_statements where statement like 'select pg_sleep(0.2)%'`)).rows[0]!.count),
        );
        expect(prepared).toEqual([1, 1]);
        expect((await Promise.all(held.map(async (client) => (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid))).sort()).toEqual(kept);
      } finally {
        held.forEach((client) => client.release());
      }
    } finally {
      await orm.close(true);
    }
  });

  test('poolMin 0 keeps nothing (as before) and a minimum above the maximum is the maximum', async () => {
    const none = await createOrm({ clientUrl: url, entities: [Thing], migrations: [], poolMin: 0, idleTimeoutMs: 100 });
    try {
      await none.em.fork().execute('select 1');
      await sleep(400);
      expect((await poolOf(none)).totalCount).toBe(0);
    } finally {
      await none.close(true);
    }
    const capped = await createOrm({ clientUrl: url, entities: [Thing], migrations: [], poolMin: 5, poolMax: 1 });
    try {
      expect((await poolOf(capped)).totalCount).toBe(1);
    } finally {
      await capped.close(true);
    }
  });
});
