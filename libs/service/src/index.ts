export { baseConfigSchema, type BaseConfig } from './config.ts';
export { startService, runMigrationCli, withServiceOrm, type ServiceDefinition, type ServiceInstance, type ServiceContext, type RunningService, type StartOptions } from './service.ts';
export { routeBinder, expressPath, type RouteCall, type BindOptions } from './routes.ts';
export { requestScope, afterCommit, onRollback, inKeyedWrite, declareOneStatementWrite, declareStreamedBody, idempotencyKeyOf, requestFingerprint, pruneIdempotencyKeys, idempotencyEntities, IdempotencyRecord, IDEMPOTENCY_HEADER, REPLAYED_HEADER } from './idempotency.ts';
