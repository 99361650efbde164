import { MikroORM, type Constructor, type EntityManager, type EntitySchema, type Options, type PostgreSqlConnection } from '@mikro-orm/postgresql';
import { Migrator, type Migration } from '@mikro-orm/migrations';
import pg from 'pg';
import type { Logger } from '@academy/kit';
import { requestScopedContext } from './request-scope.ts';

type MigrationClass = Constructor<Migration>;

export interface OrmOptions {
  clientUrl: string;
  // MikroORM's schemas are generic over each entity; the list is heterogeneous by nature.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  entities: EntitySchema<any, any>[];
  /** Committed migrations, oldest first. Passed explicitly so bundles and tests need no file discovery. */
  migrations: MigrationClass[];
  /** Folder where `--create` writes new migrations. */
  migrationsPath?: string;
  logger?: Logger;
  poolMax?: number;
  /**
   * Connections opened at start and kept however long they idle (default `DEFAULT_POOL_MIN`, at most
   * `poolMax`): each keeps its backend's caches and the statements `Sql` prepared on it, so the first
   * request after a quiet spell neither opens a connection nor plans its statement again.
   */
  poolMin?: number;
  /**
   * How long a connection above `poolMin` may idle before it is closed (default
   * `DEFAULT_POOL_IDLE_TIMEOUT_MS`; pg-pool's own default was 10 s, shorter than the gap between a
   * console's polls or two bursts of work, so each burst opened its connections again).
   */
  idleTimeoutMs?: number;
  /**
   * How long a query waits for a connection of the pool (or for a new one to open) before it fails.
   * A pool every connection of which is held by work waiting for one more then fails loudly and
   * frees itself, instead of hanging without a word. Default 30 s.
   */
  acquireTimeoutMs?: number;
  debug?: boolean;
}

/** Connections a pool keeps open and warm (see `OrmOptions.poolMin`). */
export const DEFAULT_POOL_MIN = 4;
/** Idle time after which a connection above the minimum is closed (see `OrmOptions.idleTimeoutMs`). */
export const DEFAULT_POOL_IDLE_TIMEOUT_MS = 60_000;

export async function createOrm(options: OrmOptions): Promise<MikroORM> {
  const own: { em?: EntityManager } = {};
  const max = options.poolMax ?? 20;
  const min = Math.min(options.poolMin ?? DEFAULT_POOL_MIN, max);
  const config: Options = {
    // The current EntityManager is the request's (`runInRequestScope`), forked on first use.
    context: requestScopedContext(() => own.em),
    clientUrl: options.clientUrl,
    entities: options.entities,
    extensions: [Migrator],
    // pg-pool closes no connection while it holds `min` or fewer, but opens none before it is asked: `warmPool` below.
    pool: { min, max, idleTimeoutMillis: options.idleTimeoutMs ?? DEFAULT_POOL_IDLE_TIMEOUT_MS },
    // pg-pool's `connectionTimeoutMillis`: the wait for a free connection as well as for a new one.
    driverOptions: { connectionTimeoutMillis: options.acquireTimeoutMs ?? 30_000 },
    debug: options.debug ?? false,
    allowGlobalContext: false,
    migrations: {
      migrationsList: options.migrations,
      path: options.migrationsPath,
      emit: 'ts',
      // The schema snapshot is the migration CLI's business; a running service never writes it.
      snapshot: Boolean(options.migrationsPath),
      // Written by `--create` from the entities only, so hand-written SQL never shows up as drift.
      snapshotOnMigrate: false,
      snapshotName: '.snapshot',
      silent: true,
    },
  };
  if (options.logger) {
    const logger = options.logger.child({ component: 'orm' });
    config.logger = (message) => logger.debug(message);
  }
  const orm = await MikroORM.init(config);
  own.em = orm.em;
  await warmPool(orm, min);
  return orm;
}

/**
 * Opens the pool's minimum of connections at once (pg-pool opens a connection only when a query
 * finds none idle), so the first requests of a service do not each wait for a backend to start.
 * Best effort: a database that refuses now leaves the pool to open them on demand, as before.
 */
async function warmPool(orm: MikroORM, min: number): Promise<void> {
  if (min === 0) return;
  const pool = await (orm.em.getConnection() as PostgreSqlConnection).getNativeClient();
  // Held together, so that each is a connection of its own (an idle one would be handed out again).
  const clients = await Promise.allSettled(Array.from({ length: min }, () => pool.connect()));
  for (const client of clients) if (client.status === 'fulfilled') client.value.release();
}

/**
 * Key of the advisory lock held while migrating. PostgreSQL scopes advisory locks to a database,
 * so one key serves every service (each has its own database).
 */
const MIGRATION_LOCK_KEY = 4_270_512_001;

/**
 * Applies pending migrations; returns the names applied. Instances starting at once (replicas,
 * a rolling update) take turns through an advisory lock held on a connection of its own: one
 * migrates, the others wait, then find nothing pending. The lock goes with its session, so an
 * instance that dies while migrating releases it (and its migration transaction rolls back).
 */
export async function runMigrations(orm: MikroORM): Promise<string[]> {
  const lock = new pg.Client({ connectionString: orm.config.get('clientUrl') });
  // Idle while the migrations run: a dropped connection is an 'error' event, which without a listener ends the process.
  lock.on('error', () => undefined);
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await orm.migrator.up();
    return applied.map((migration) => migration.name);
  } finally {
    await lock.end();
  }
}

export function dbReadiness(orm: MikroORM) {
  return {
    name: 'database',
    check: async () => {
      await orm.em.getConnection().execute('select 1');
    },
  };
}

/** Creates the database named in `url` when it does not exist yet (idempotent, race-safe). */
export async function ensureDatabase(url: string): Promise<boolean> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsupported database name "${name}"`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount) return false;
    try {
      await client.query(`create database "${name}"`);
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === '42P04' || (error as { code?: string }).code === '23505') return false; // created concurrently
      throw error;
    }
  } finally {
    await client.end();
  }
}

export async function dropDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await client.end();
  }
}
