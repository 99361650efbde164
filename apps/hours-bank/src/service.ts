import { personalFieldNames } from '@academy/privacy';
import type { ServiceDefinition } from '@academy/service';
import type { Config } from './config.ts';
import { entities } from './entities.ts';
import { migrations } from './migrations/index.ts';
import { registerRoutes } from './routes.ts';
import { hoursBankProviders } from './privacy/hours-bank.privacy.ts';
import { subscriptions } from './subscriptions.ts';

export const hoursBankService: ServiceDefinition<Config> = {
  name: 'hours-bank',
  entities,
  migrations,
  readinessNeedsRedis: false,
  personalFields: personalFieldNames(hoursBankProviders),
  // One feature and nothing per instance beyond the service's context: its use cases take that context.
  setup: (ctx) => {
    let stopPrivacy = async () => {};
    return {
      routes: (app) => registerRoutes(app, ctx),
      subscriptions: async () => {
        stopPrivacy = (await subscriptions(ctx)).stop;
      },
      stop: () => stopPrivacy(),
    };
  },
};
