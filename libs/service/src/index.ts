export { baseConfigSchema, type BaseConfig } from './config.ts';
export { startService, runMigrationCli, withServiceOrm, type ServiceDefinition, type ServiceInstance, type ServiceContext, type RunningService, type StartOptions } from './service.ts';
export { routeBinder, expressPath, type RouteCall, type BindOptions } from './routes.ts';
export { implementFor, mountImplementations, type Implementation, type Handlers, type HandlerEntry, type Handler, type HandlerInput, type AnswerOf, type CallerOf, type MountOptions } from './router.ts';
export { requestScope, afterCommit, onRollback, inKeyedWrite, declareKeyInStatement, declareStreamedBody, statementKeyOf, StatementKey, type KeyColumns, idempotencyKeyOf, requestFingerprint, pruneIdempotencyKeys, idempotencyEntities, IdempotencyRecord, IDEMPOTENCY_HEADER, REPLAYED_HEADER } from './idempotency.ts';
