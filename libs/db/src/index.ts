export { createOrm, runMigrations, requestContext, dbReadiness, ensureDatabase, dropDatabase, type OrmOptions } from './orm.ts';
export { migrationCli } from './migration-cli.ts';
export { Sql, type Query } from './sql.ts';
export { pgArray } from './pg-array.ts';
