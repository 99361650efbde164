import { describe, expect, test } from '@jest/globals';
import { splitWithClause } from '../src/index.ts';

describe('splitWithClause (a statement made one common table expression of a wider one)', () => {
  test('a statement without a WITH list is all main statement', () => {
    expect(splitWithClause('  select 1 as one ')).toEqual({ ctes: null, main: 'select 1 as one' });
    expect(splitWithClause('insert into t (a) values ($1) returning id')).toEqual({ ctes: null, main: 'insert into t (a) values ($1) returning id' });
  });

  test('the main statement is the first one outside parentheses after the WITH list', () => {
    const text = `with input as (select $1::int as id),
      moved as (update t set n = n + 1 from input where t.id = input.id returning t.id, (select 2) as two)
      select id from moved`;
    expect(splitWithClause(text)).toEqual({
      ctes: `input as (select $1::int as id),
      moved as (update t set n = n + 1 from input where t.id = input.id returning t.id, (select 2) as two)`,
      main: 'select id from moved',
    });
  });

  test('column lists, MATERIALIZED and a data-modifying main statement', () => {
    expect(splitWithClause('with recursive x (n) as materialized (select 1) insert into t select n from x')).toEqual({
      ctes: 'recursive x (n) as materialized (select 1)',
      main: 'insert into t select n from x',
    });
  });

  test('keywords inside quotes, comments and dollar quotes are not statements', () => {
    const text = `with a as (select ')select(' as s, "select" from t), -- select here ( is a comment
      b as (select $$ ) select $$ as body, $tag$ ( $tag$ as other) /* select */ select * from a, b where x = $1`;
    const { ctes, main } = splitWithClause(text);
    expect(main).toBe('select * from a, b where x = $1');
    expect(ctes!.startsWith('a as (')).toBe(true);
    expect(ctes!.endsWith('/* select */')).toBe(true);
  });

  test('a text that is no statement is refused, naming what is expected', () => {
    expect(() => splitWithClause('with a as (select 1)')).toThrow('a one-statement write must be a SELECT, INSERT, UPDATE, DELETE or VALUES');
  });
});
