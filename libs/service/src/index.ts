export { baseConfigSchema, type BaseConfig } from './config.ts';
export { startService, type ServiceDefinition, type ServiceContext, type RunningService } from './service.ts';
