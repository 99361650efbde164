import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { defineEntity, p, type MikroORM } from '@mikro-orm/postgresql';
import { createTestDatabase, dropTestDatabase } from '@academy/testing';
import { createOrm, pgArray } from '../src/index.ts';

/** MikroORM starts only with an entity. */
const Unused = defineEntity({ name: 'Unused', properties: { id: p.integer().primary() } });

describe('pgArray: a JavaScript array as one parameter of MikroORM execute', () => {
  let url: string;
  let orm: MikroORM;
  const roundTrip = async <T>(cast: string, values: readonly T[]) =>
    (await orm.em.fork().getConnection().execute<{ value: T[] }[]>(`select ?::${cast} as value`, [pgArray(values as never)]))[0]!.value;

  beforeAll(async () => {
    url = await createTestDatabase('db_pg_array');
    orm = await createOrm({ clientUrl: url, entities: [Unused], migrations: [], poolMax: 2 });
  });
  afterAll(async () => {
    await orm.close();
    await dropTestDatabase(url);
  });

  test('integers, bigints and an empty list come back as they went', async () => {
    expect(await roundTrip('int[]', [3, 1, 2_147_483_647])).toEqual([3, 1, 2_147_483_647]);
    expect(await roundTrip('int[]', [])).toEqual([]);
    expect(await roundTrip('bigint[]', [9_007_199_254_740_993n])).toEqual(['9007199254740993']);
  });

  test('text with quotes, backslashes, commas, braces, spaces, "NULL" and accents comes back unchanged; null is NULL', async () => {
    const values = ['plain', 'a "quoted" word', 'back\\slash\\', 'comma, {braces}', '  spaced  ', '', 'NULL', 'Núñez', null];
    expect(await roundTrip('text[]', values)).toEqual(values);
  });

  test('used with = any(), it matches each element exactly', async () => {
    const [row] = await orm.em
      .fork()
      .getConnection()
      .execute<{ n: number }[]>(`select count(*)::int as n from unnest(array['a,b', 'c', '"d"']) as v where v = any(?::text[])`, [pgArray(['a,b', '"d"', 'b'])]);
    expect(row!.n).toBe(2);
  });
});
