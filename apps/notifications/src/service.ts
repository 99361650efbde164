import type { ServiceDefinition } from '@academy/service';
import type { Config } from './config.ts';
import { entities } from './data/entities.ts';
import { migrations } from './migrations/index.ts';
import { registerRoutes } from './http/routes.ts';

export const notificationsService: ServiceDefinition<Config> = {
  name: 'notifications',
  entities,
  migrations,
  usesRedis: false,
  routes: registerRoutes,
};
