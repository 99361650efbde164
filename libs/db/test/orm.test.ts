import { afterAll, describe, expect, test } from '@jest/globals';
import pg from 'pg';
import { testUrls, uniqueName } from '@academy/testing';
import { dropDatabase, ensureDatabase } from '../src/index.ts';

describe('ensureDatabase', () => {
  const url = `${testUrls.postgres}/${uniqueName('t_db_ensure')}`;
  afterAll(() => dropDatabase(url));

  test('creates a missing database once, even when asked concurrently', async () => {
    const created = await Promise.all([ensureDatabase(url), ensureDatabase(url), ensureDatabase(url)]);
    expect(created.filter(Boolean)).toHaveLength(1);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query('select current_database() as name');
    await client.end();
    expect(rows[0].name).toBe(new URL(url).pathname.slice(1));
    expect(await ensureDatabase(url)).toBe(false);
  });

  test('refuses a database name that would need quoting', async () => {
    await expect(ensureDatabase(`${testUrls.postgres}/bad-name;drop`)).rejects.toThrow(/unsupported database name/);
  });
});
