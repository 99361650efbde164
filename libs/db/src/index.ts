export { createOrm, runMigrations, dbReadiness, ensureDatabase, dropDatabase, DEFAULT_POOL_MIN, DEFAULT_POOL_IDLE_TIMEOUT_MS, type OrmOptions } from './orm.ts';
export { migrationCli } from './migration-cli.ts';
export { Sql, numberedPlaceholders, type Query } from './sql.ts';
export { beginWith, commitWith, sqlLiteral } from './client-transaction.ts';
export { pgArray } from './pg-array.ts';
export { runInRequestScope, requestEntityManager } from './request-scope.ts';
