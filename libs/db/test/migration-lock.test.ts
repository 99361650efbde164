import { afterAll, describe, expect, test } from '@jest/globals';
import pg from 'pg';
import { defineEntity, p } from '@mikro-orm/postgresql';
import { Migration } from '@mikro-orm/migrations';
import { testUrls, uniqueName } from '@academy/testing';
import { createOrm, dropDatabase, ensureDatabase, runMigrations } from '../src/index.ts';

const Tick = defineEntity({ name: 'Tick', tableName: 'tick', properties: { id: p.integer().primary() } });

// A slow first migration widens the window in which two instances would both see it pending; the
// second inserts a row, which a double application would insert twice.
class Migration20260101000000_slow_table extends Migration {
  override async up() {
    this.addSql('select pg_sleep(0.5)');
    this.addSql('create table tick (id int primary key)');
  }
}
class Migration20260101000001_seed_row extends Migration {
  override async up() {
    this.addSql('insert into tick (id) values (1)');
  }
}
const migrations = [Migration20260101000000_slow_table, Migration20260101000001_seed_row];

describe('runMigrations', () => {
  const url = `${testUrls.postgres}/${uniqueName('t_db_migrate_lock')}`;
  afterAll(() => dropDatabase(url));

  test('two instances migrating one database at once both succeed and apply each migration once', async () => {
    await ensureDatabase(url);
    const orms = await Promise.all([0, 1].map(() => createOrm({ clientUrl: url, entities: [Tick], migrations })));
    try {
      const applied = await Promise.all(orms.map((orm) => runMigrations(orm)));
      // One migrated both, the other waited for the lock and found nothing pending.
      expect(applied.map((names) => names.length).sort()).toEqual([0, 2]);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const ticks = await client.query('select count(*)::int as n from tick');
        const recorded = await client.query('select name from mikro_orm_migrations order by name');
        expect(ticks.rows[0].n).toBe(1);
        expect(recorded.rows.map((row) => row.name)).toEqual(['Migration20260101000000_slow_table', 'Migration20260101000001_seed_row']);
        // The lock went with its session: nothing is left holding it.
        const held = await client.query("select count(*)::int as n from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())");
        expect(held.rows[0].n).toBe(0);
      } finally {
        await client.end();
      }
      expect(await runMigrations(orms[0])).toEqual([]);
    } finally {
      await Promise.all(orms.map((orm) => orm.close()));
    }
  });
});
