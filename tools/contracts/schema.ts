// Expand/contract, checked on the schema: the database of an app's last release upgraded by HEAD's
// migrations (what a rolling deploy does: the first new pod migrates while the old pods run on)
// must still hold every table and column the release's code reads and writes, in a shape that
// code still fits. A column dropped or renamed, a type changed, a column made NOT NULL, or a NOT
// NULL column added without a default (the release's inserts leave it out) each break the old
// pods; adding a table, a nullable column or one with a default does not. Drop what the old code
// reads one release later (contract), once no pod of the release runs.
//
// `test:compat` runs this per changed app before it starts any system (seconds, and it names the
// column); the journeys then run the release's code on HEAD's schema, which catches what a column
// list cannot (a new constraint the old code violates, a trigger, data a migration rewrote).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { dropDatabase } from '@academy/db';
import { urls } from '@academy/infra';

export interface Column {
  table: string;
  column: string;
  /** `integer`, `character varying(255)`, `numeric(10,2)`, `USER-DEFINED (my_enum)`, … */
  type: string;
  /** The varchar length, to tell a widening (allowed) from a narrowing. */
  length: number | null;
  nullable: boolean;
  /** A default, an identity or a generated column: an insert may leave it out. */
  filled: boolean;
}

export interface SchemaBreak {
  /** `table` or `table.column`. */
  field: string;
  rule: string;
}

/** The tables and columns of the `public` schema, MikroORM's own bookkeeping left out. */
export async function readSchema(url: string): Promise<Column[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ table_name: string; column_name: string; data_type: string; udt_name: string; len: number | null; num: string | null; nullable: boolean; filled: boolean }>(
      `select c.table_name, c.column_name, c.data_type, c.udt_name, c.character_maximum_length len,
              case when c.data_type = 'numeric' and c.numeric_precision is not null then c.numeric_precision || ',' || coalesce(c.numeric_scale, 0) end num,
              c.is_nullable = 'YES' nullable,
              (c.column_default is not null or c.is_identity = 'YES' or c.is_generated <> 'NEVER') filled
         from information_schema.columns c
         join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
        where c.table_schema = 'public' and c.table_name not like 'mikro_orm_%'
        order by c.table_name, c.ordinal_position`,
    );
    return rows.map((row) => ({
      table: row.table_name,
      column: row.column_name,
      type: row.data_type === 'USER-DEFINED' || row.data_type === 'ARRAY' ? `${row.data_type} (${row.udt_name})` : row.num ? `${row.data_type}(${row.num})` : row.data_type,
      length: row.len,
      nullable: row.nullable,
      filled: row.filled,
    }));
  } finally {
    await client.end();
  }
}

/** What `after` (the release's database upgraded by HEAD's migrations) takes away from code written against `before`. */
export function schemaBreaks(before: Column[], after: Column[]): SchemaBreak[] {
  const key = (c: Column) => `${c.table}.${c.column}`;
  const now = new Map(after.map((c) => [key(c), c]));
  const tablesNow = new Set(after.map((c) => c.table));
  const tablesBefore = new Set(before.map((c) => c.table));
  const out: SchemaBreak[] = [];
  for (const table of tablesBefore) if (!tablesNow.has(table)) out.push({ field: table, rule: 'table dropped (or renamed)' });
  for (const old of before) {
    if (!tablesNow.has(old.table)) continue;
    const next = now.get(key(old));
    if (!next) {
      out.push({ field: key(old), rule: 'column dropped (or renamed)' });
      continue;
    }
    if (next.type !== old.type) out.push({ field: key(old), rule: `type changed: ${old.type} → ${next.type}` });
    else if (old.length !== null && (next.length === null ? false : next.length < old.length)) out.push({ field: key(old), rule: `narrowed: ${old.type}(${old.length}) → ${next.type}(${next.length})` });
    if (old.nullable && !next.nullable) out.push({ field: key(old), rule: 'made NOT NULL (the release may write null)' });
    else if (old.filled && !next.filled && !next.nullable) out.push({ field: key(old), rule: 'default removed from a NOT NULL column (the release may leave it out)' });
  }
  const known = new Set(before.map(key));
  for (const next of after) {
    if (!tablesBefore.has(next.table) || known.has(key(next))) continue;
    if (!next.nullable && !next.filled) out.push({ field: key(next), rule: "NOT NULL column added without a default (the release's inserts leave it out)" });
  }
  return out;
}

/** Runs `node apps/<app>/src/migrate.ts` of the checkout at `root` against `url` (created when missing); rejects with its output. */
export function migrateWith(root: string, app: string, url: string, env: NodeJS.ProcessEnv = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join('apps', app, 'src/migrate.ts')], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env, DATABASE_URL: url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${app}: the migrations of ${root} failed (exit ${code}):\n${output.trim().split('\n').slice(-15).join('\n')}`))));
  });
}

/**
 * The release's database (its own migrations, from its checkout), then HEAD's migrations on top,
 * and what they took away. A HEAD migration that does not apply to the release's database is an
 * error (rejects), as it would stop the first new pod.
 */
export async function releaseSchemaBreaks(app: string, releaseRoot: string, headRoot: string, postgres = urls('test').postgres): Promise<SchemaBreak[]> {
  const url = `${postgres}/t_compat_${randomBytes(3).toString('hex')}_${app.replace(/\W/g, '_')}`;
  try {
    await migrateWith(releaseRoot, app, url);
    const before = await readSchema(url);
    await migrateWith(headRoot, app, url);
    return schemaBreaks(before, await readSchema(url));
  } finally {
    await dropDatabase(url).catch(() => undefined);
  }
}
