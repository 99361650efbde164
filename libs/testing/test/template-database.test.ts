import { afterAll, describe, expect, test } from '@jest/globals';
import pg from 'pg';
import { Migration } from '@mikro-orm/migrations';
import { runMigrations } from '@academy/db';
import { withServiceOrm, type ServiceDefinition } from '@academy/service';
import { dropTestDatabase, testConfig, testConfigOn, testUrls } from '../src/index.ts';
import { cloneMigratedDatabase, createMigratedTestDatabase, templateName } from '../src/template-database.ts';

class Migration20260101000000_things extends Migration {
  override async up(): Promise<void> {
    this.addSql('create table "things" ("id" serial primary key, "name" text not null);');
  }
}
class Migration20260101000001_things_kind extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "things" add column "kind" text;');
  }
}

const definition = (migrations: ServiceDefinition['migrations']): ServiceDefinition => ({
  name: 'template-probe',
  entities: [],
  migrations,
  setup: () => ({ routes: () => {} }),
});

async function columns(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ column_name: string }>("select column_name from information_schema.columns where table_name = 'things' order by ordinal_position");
    return rows.map((row) => row.column_name);
  } finally {
    await client.end();
  }
}

describe('test databases cloned from a migrated template', () => {
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: `${testUrls.postgres}/postgres` });
    await admin.connect();
    try {
      for (const service of [definition([Migration20260101000000_things]), definition([Migration20260101000000_things, Migration20260101000001_things_kind])]) {
        const name = templateName(service);
        const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
        if (!rowCount) continue;
        await admin.query(`alter database "${name}" with is_template false`);
        await admin.query(`drop database "${name}"`);
      }
    } finally {
      await admin.end();
    }
  });

  test('an empty test database becomes a migrated copy: the service then finds no migration pending', async () => {
    const service = definition([Migration20260101000000_things, Migration20260101000001_things_kind]);
    const configs = [await testConfig('template_a'), await testConfig('template_b')];
    try {
      // two at once: the template is built once, under its lock, and both clone it
      await Promise.all(configs.map((config) => cloneMigratedDatabase(service, config)));
      for (const config of configs) {
        expect(await columns(config.DATABASE_URL)).toEqual(['id', 'name', 'kind']);
        const pending = await withServiceOrm(service, config, (orm) => runMigrations(orm));
        expect(pending).toEqual([]);
      }
    } finally {
      for (const config of configs) await dropTestDatabase(config.DATABASE_URL);
    }
  });

  test('another set of migrations is another template, and a database that already holds tables is left alone', async () => {
    const one = definition([Migration20260101000000_things]);
    const two = definition([Migration20260101000000_things, Migration20260101000001_things_kind]);
    expect(templateName(one)).not.toBe(templateName(two));
    const config = await testConfig('template_c');
    try {
      await cloneMigratedDatabase(one, config);
      expect(await columns(config.DATABASE_URL)).toEqual(['id', 'name']);
      await cloneMigratedDatabase(two, config);
      expect(await columns(config.DATABASE_URL)).toEqual(['id', 'name']);
    } finally {
      await dropTestDatabase(config.DATABASE_URL);
    }
  });

  test('a test database made at once as a copy (serviceTestConfig) is migrated, and the start leaves it as it is', async () => {
    const service = definition([Migration20260101000000_things, Migration20260101000001_things_kind]);
    const url = await createMigratedTestDatabase(service, 'template_d');
    try {
      expect(new URL(url).pathname).toMatch(/^\/t_template_d_[0-9a-f]{8}$/);
      expect(await columns(url)).toEqual(['id', 'name', 'kind']);
      const config = testConfigOn(url);
      await cloneMigratedDatabase(service, config);
      expect(await withServiceOrm(service, config, (orm) => runMigrations(orm))).toEqual([]);
      expect(await columns(url)).toEqual(['id', 'name', 'kind']);
    } finally {
      await dropTestDatabase(url);
    }
  });
});
