// A service's test database cloned from a migrated template instead of migrated from nothing: the
// template is built once per service and set of migrations (its name carries a hash of their code),
// under an advisory lock so that Jest workers and projects starting at once build it once, then every
// test's database is a `CREATE DATABASE … TEMPLATE` copy (about a tenth of a migration run).
// The service still runs its migrations at start, which finds none pending: what is tested is the same.
// `TEST_DATABASE_TEMPLATES=0` migrates every test database from nothing instead (to compare the two).
// `createMigratedTestDatabase` makes the copy at once (one CREATE DATABASE a test service); `cloneMigratedDatabase`
// replaces an empty one that `testConfig` made (two).
import { createHash } from 'node:crypto';
import pg from 'pg';
import { withServiceOrm, type BaseConfig, type ServiceDefinition } from '@academy/service';
import { createTestDatabase, testUrls, uniqueName } from './index.ts';

/** PostgreSQL: "source database … is being accessed by other users" (a connection to the template). */
const OBJECT_IN_USE = '55006';
const CLONE_ATTEMPTS = 20;
/** Databases made here as copies of a template: `cloneMigratedDatabase` knows them migrated without asking. */
const copies = new Set<string>();
const templatesOff = () => process.env.TEST_DATABASE_TEMPLATES === '0';

function parts(url: string): { name: string; admin: string } {
  const target = new URL(url);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  return { name: decodeURIComponent(target.pathname.slice(1)), admin: admin.toString() };
}

/** `tpl_<service>_<hash of the migrations' names and code>`: a changed migration is a new template. */
export function templateName(definition: Pick<ServiceDefinition, 'name' | 'migrations'>): string {
  const hash = createHash('sha256');
  for (const migration of definition.migrations) hash.update(`${migration.name}\n${migration.toString()}\n`);
  return `tpl_${definition.name.replace(/\W/g, '_').toLowerCase()}_${hash.digest('hex').slice(0, 12)}`;
}

async function isEmpty(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>("select count(*) from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public'");
    return Number(rows[0].count) === 0;
  } finally {
    await client.end();
  }
}

/** Builds the template when missing; it then accepts no connections (so autovacuum cannot hold it either). */
async function ensureTemplate(admin: pg.Client, definition: ServiceDefinition, config: Pick<BaseConfig, 'DATABASE_URL'>, template: string): Promise<void> {
  const lockKey = createHash('sha256').update(template).digest().readBigInt64BE(0);
  await admin.query('select pg_advisory_lock($1)', [lockKey.toString()]);
  try {
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [template]);
    if (rowCount) return;
    const building = `${template}_building`;
    await admin.query(`drop database if exists "${building}" with (force)`);
    const url = new URL(config.DATABASE_URL);
    url.pathname = `/${building}`;
    // the ORM reads DATABASE_URL only
    await withServiceOrm(definition, { ...config, DATABASE_URL: url.toString() } as BaseConfig, async () => {});
    await admin.query(`alter database "${building}" rename to "${template}"`);
    await admin.query(`alter database "${template}" with is_template true allow_connections false`);
  } finally {
    await admin.query('select pg_advisory_unlock($1)', [lockKey.toString()]);
  }
}

/** Creates `name` as a copy of `template` (dropped first when there); the copy waits while another connection holds the template. */
async function copyTemplate(admin: pg.Client, name: string, template: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.query(`create database "${name}" template "${template}"`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== OBJECT_IN_USE || attempt === CLONE_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

/**
 * A fresh test database (`t_<prefix>_<random>`) made at once as a copy of the service's migrated template (built
 * when missing): what `testConfig` then `cloneMigratedDatabase` give, with one CREATE DATABASE instead of two.
 * Empty, as `createTestDatabase`, when templates are off or the service has no migrations.
 */
export async function createMigratedTestDatabase(definition: ServiceDefinition, prefix: string): Promise<string> {
  if (templatesOff() || !definition.migrations.length) return createTestDatabase(prefix);
  const name = uniqueName(`t_${prefix}`);
  const url = `${testUrls.postgres}/${name}`;
  const admin = new pg.Client({ connectionString: `${testUrls.postgres}/postgres` });
  await admin.connect();
  try {
    const template = templateName(definition);
    await ensureTemplate(admin, definition, { DATABASE_URL: url }, template);
    await copyTemplate(admin, name, template);
  } finally {
    await admin.end();
  }
  copies.add(url);
  return url;
}

/**
 * Replaces the service's still-empty test database (as `testConfig` creates it) with a copy of the
 * service's migrated template. A database that already holds tables (a second instance, a test that
 * prepared one, one `createMigratedTestDatabase` made) is left as it is.
 */
export async function cloneMigratedDatabase(definition: ServiceDefinition, config: BaseConfig): Promise<void> {
  if (copies.has(config.DATABASE_URL) || templatesOff() || !definition.migrations.length || !(await isEmpty(config.DATABASE_URL))) return;
  const { name, admin: adminUrl } = parts(config.DATABASE_URL);
  const template = templateName(definition);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await ensureTemplate(admin, definition, config, template);
    await copyTemplate(admin, name, template);
  } finally {
    await admin.end();
  }
}
