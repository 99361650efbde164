import type { ServiceDefinition } from '@academy/service';
import type { Config } from './config.ts';
import { entities } from './data/entities.ts';
import { migrations } from './migrations/index.ts';
import { registerRoutes } from './http/routes.ts';
import { incidentsOf } from './shared/incidents-context.ts';
import { scheduleChecks } from './checks/scheduled-check.ts';
import { subscriptions } from './messaging/subscriptions.ts';

const stopChecks = new WeakMap<object, () => Promise<void>>();

export const incidentsService: ServiceDefinition<Config> = {
  name: 'incidents',
  entities,
  migrations,
  usesRedis: true,
  routes: registerRoutes,
  subscriptions,
  onListening: (_server, ctx) => {
    stopChecks.set(ctx, scheduleChecks(incidentsOf(ctx), ctx.config.CHECK_INTERVAL_MS));
  },
  onStop: async (ctx) => {
    await stopChecks.get(ctx)?.();
    incidentsOf(ctx).cache.stop();
  },
};
