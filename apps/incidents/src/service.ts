import type { ServiceDefinition } from '@academy/service';
import type { Config } from './config.ts';
import { entities } from './entities.ts';
import { migrations } from './migrations/index.ts';
import { registerRoutes } from './routes.ts';
import { createIncidentsContext, type IncidentsContext } from './shared/incidents-context.ts';
import { scheduleChecks } from './checks/schedule-checks.ts';
import { scheduleHousekeeping } from './housekeeping.ts';
import { INCIDENTS_PERSONAL_FIELDS } from './privacy/incidents.privacy.ts';
import { subscriptions } from './subscriptions.ts';

export const incidentsService: ServiceDefinition<Config, IncidentsContext> = {
  name: 'incidents',
  entities,
  migrations,
  readinessNeedsRedis: true,
  personalFields: INCIDENTS_PERSONAL_FIELDS,
  setup: (serviceContext) => {
    const ctx = createIncidentsContext(serviceContext);
    let stopChecks = async () => {};
    let stopHousekeeping = async () => {};
    let stopPrivacy = async () => {};
    return {
      deps: ctx,
      routes: (app) => registerRoutes(app, ctx),
      subscriptions: async () => {
        stopPrivacy = (await subscriptions(ctx)).stop;
      },
      listening: () => {
        stopChecks = scheduleChecks(ctx, ctx.config.CHECK_INTERVAL_MS);
        stopHousekeeping = scheduleHousekeeping(ctx);
      },
      stop: async () => {
        await stopChecks();
        await stopHousekeeping();
        await stopPrivacy();
        ctx.cache.stop();
      },
    };
  },
};
