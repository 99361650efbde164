import type { ServiceDefinition } from '@academy/service';
import type { Config } from './config.ts';
import { entities } from './entities.ts';
import { migrations } from './migrations/index.ts';
import { registerRoutes } from './routes.ts';
import { subscriptions } from './subscriptions.ts';

export const hoursBankService: ServiceDefinition<Config> = {
  name: 'hours-bank',
  entities,
  migrations,
  readinessNeedsRedis: false,
  // One feature and nothing per instance beyond the service's context: its use cases take that context.
  setup: (ctx) => ({
    routes: (app) => registerRoutes(app, ctx),
    subscriptions: () => subscriptions(ctx),
  }),
};
