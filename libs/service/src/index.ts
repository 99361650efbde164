export { baseConfigSchema, type BaseConfig } from './config.ts';
export { startService, runMigrationCli, withServiceOrm, type ServiceDefinition, type ServiceContext, type RunningService, type StartOptions } from './service.ts';
export { requestScope, idempotencyKeyOf, requestFingerprint, pruneIdempotencyKeys, idempotencyEntities, IdempotencyRecord, IDEMPOTENCY_HEADER, REPLAYED_HEADER } from './idempotency.ts';
