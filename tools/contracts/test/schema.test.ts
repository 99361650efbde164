// Expand/contract on the schema (test:compat's first step): a release's database upgraded by HEAD's
// migrations, against real PostgreSQL. A migration that takes away what the released code reads
// or writes breaks it, naming the table and column; an expanding one does not. The last test runs
// hours-bank's real migrations, then a deliberate breaking one added to a copy of the app.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import pg from 'pg';
import { createTestDatabase, dropTestDatabase } from '@academy/testing';
import { repoRoot } from '../records.ts';
import { readSchema, releaseSchemaBreaks, schemaBreaks } from '../schema.ts';

const RELEASE = `
  create table transactions (id serial primary key, employee_id int not null, minutes int not null, note varchar(200) null,
                             kind text not null default 'work', created_at timestamptz not null default now());
  create table employees (id int primary key, name text null);`;

let url: string;
beforeEach(async () => {
  url = await createTestDatabase('compat_schema');
});
afterEach(async () => {
  await dropTestDatabase(url);
});

async function sql(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** The break lines of the release's schema upgraded by `migration`. */
async function upgradedBy(migration: string): Promise<string[]> {
  await sql(RELEASE);
  const before = await readSchema(url);
  await sql(migration);
  return schemaBreaks(before, await readSchema(url)).map((b) => `${b.field}: ${b.rule}`);
}

describe('a migration that breaks the released code', () => {
  test('a column dropped', async () => {
    expect(await upgradedBy('alter table transactions drop column minutes')).toEqual(['transactions.minutes: column dropped (or renamed)']);
  });

  test('a column renamed (the release reads the old name)', async () => {
    expect(await upgradedBy('alter table transactions rename column note to comment')).toEqual(['transactions.note: column dropped (or renamed)']);
  });

  test('a table dropped or renamed', async () => {
    expect(await upgradedBy('alter table employees rename to people')).toEqual(['employees: table dropped (or renamed)']);
  });

  test("a column's type changed, or its varchar narrowed", async () => {
    expect(await upgradedBy('alter table transactions alter column minutes type text')).toEqual(['transactions.minutes: type changed: integer → text']);
    await sql('drop table transactions; drop table employees');
    expect(await upgradedBy('alter table transactions alter column note type varchar(100)')).toEqual(['transactions.note: narrowed: character varying(200) → character varying(100)']);
  });

  test('a nullable column made NOT NULL', async () => {
    expect(await upgradedBy("update transactions set note = ''; alter table transactions alter column note set not null")).toEqual(['transactions.note: made NOT NULL (the release may write null)']);
  });

  test('a NOT NULL column added without a default, or a default taken from one', async () => {
    expect(await upgradedBy('alter table transactions add column center_id int not null')).toEqual(["transactions.center_id: NOT NULL column added without a default (the release's inserts leave it out)"]);
    await sql('drop table transactions; drop table employees');
    expect(await upgradedBy('alter table transactions alter column kind drop default')).toEqual(['transactions.kind: default removed from a NOT NULL column (the release may leave it out)']);
  });
});

describe('a migration that expands', () => {
  test('a new table, a nullable column, a NOT NULL one with a default, NOT NULL dropped, a varchar widened, an index: nothing breaks', async () => {
    expect(
      await upgradedBy(`
        create table centers (id serial primary key, name text not null);
        alter table transactions add column center_id int null, add column source text not null default 'api',
          alter column employee_id drop not null, alter column note type varchar(400);
        create index on transactions (employee_id);`),
    ).toEqual([]);
  });
});

describe("an app's real migrations", () => {
  let scratch: string;
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  /** A checkout that is this one but for a copy of hours-bank with `up` as its newest migration. */
  function withMigration(up: string): string {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'compat-schema-'));
    for (const entry of ['package.json', 'node_modules', 'libs', 'tools']) symlinkSync(path.join(repoRoot, entry), path.join(scratch, entry));
    mkdirSync(path.join(scratch, 'apps'));
    cpSync(path.join(repoRoot, 'apps/hours-bank/src'), path.join(scratch, 'apps/hours-bank/src'), { recursive: true });
    const migrations = path.join(scratch, 'apps/hours-bank/src/migrations');
    const name = 'Migration20991231000000_fixture';
    writeFileSync(
      path.join(migrations, `${name}.ts`),
      `import { Migration } from '@mikro-orm/migrations';\nexport class ${name} extends Migration {\n  override name = '${name}';\n  override up(): void {\n    this.addSql(${JSON.stringify(up)});\n  }\n}\n`,
    );
    const index = readFileSync(path.join(migrations, 'index.ts'), 'utf8').replace(/(export const migrations = \[[^\]]*)\]/, `$1, ${name}]`);
    writeFileSync(path.join(migrations, 'index.ts'), `import { ${name} } from './${name}.ts';\n${index}`);
    return scratch;
  }

  test('hours-bank upgraded by a migration that renames school_courses.name (its replica handler writes it) breaks, naming the column; by an expanding one it does not', async () => {
    expect(await releaseSchemaBreaks('hours-bank', repoRoot, withMigration('alter table "school_courses" rename column "name" to "title";'))).toEqual([
      { field: 'school_courses.name', rule: 'column dropped (or renamed)' },
    ]);
    rmSync(scratch, { recursive: true, force: true });
    expect(await releaseSchemaBreaks('hours-bank', repoRoot, withMigration('alter table "school_courses" add column "title" varchar(255) null;'))).toEqual([]);
  }, 240_000);

  test('a HEAD migration that does not apply to the release database fails, naming the app', async () => {
    await expect(releaseSchemaBreaks('hours-bank', repoRoot, withMigration('alter table "no_such_table" add column "x" int;'))).rejects.toThrow(/hours-bank: the migrations of .* failed/);
  }, 240_000);
});
