export { baseConfigSchema, type BaseConfig } from './config.ts';
export { startService, runMigrationCli, withServiceOrm, type ServiceDefinition, type ServiceContext, type RunningService } from './service.ts';
