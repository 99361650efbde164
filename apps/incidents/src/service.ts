import type { ServiceDefinition } from '@academy/service';
import type { Config } from './config.ts';
import { entities } from './entities.ts';
import { migrations } from './migrations/index.ts';
import { registerRoutes } from './routes.ts';
import { createIncidentsContext, type IncidentsContext } from './shared/incidents-context.ts';
import { scheduleChecks } from './checks/scheduled-check.ts';
import { subscriptions } from './subscriptions.ts';

export const incidentsService: ServiceDefinition<Config, IncidentsContext> = {
  name: 'incidents',
  entities,
  migrations,
  readinessNeedsRedis: true,
  setup: (ctx) => {
    const deps = createIncidentsContext(ctx);
    let stopChecks = async () => {};
    return {
      deps,
      routes: (app) => registerRoutes(app, deps),
      subscriptions: () => subscriptions(deps),
      listening: () => {
        stopChecks = scheduleChecks(deps, deps.config.CHECK_INTERVAL_MS);
      },
      stop: async () => {
        await stopChecks();
        deps.cache.stop();
      },
    };
  },
};
