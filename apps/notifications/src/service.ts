import type { ServiceContext, ServiceDefinition } from '@academy/service';
import type { Config } from './config.ts';
import { entities } from './data/entities.ts';
import { migrations } from './migrations/index.ts';
import { registerRoutes } from './http/routes.ts';
import { subscriptions } from './messaging/subscriptions.ts';
import { createRuntime, type Runtime, type RuntimeOverrides } from './runtime.ts';

/** The service; tests replace FCM's `Messaging` or the SMTP transport through `overrides`. */
export function defineNotificationsService(overrides: RuntimeOverrides = {}): ServiceDefinition<Config> {
  // One runtime per started instance (a test may start several from one definition).
  const runtimes = new WeakMap<ServiceContext<Config>, Runtime>();
  const runtimeOf = (ctx: ServiceContext<Config>): Runtime => {
    let runtime = runtimes.get(ctx);
    if (!runtime) {
      runtime = createRuntime(ctx, overrides);
      runtimes.set(ctx, runtime);
    }
    return runtime;
  };
  return {
    name: 'notifications',
    entities,
    migrations,
    // Redis carries Socket.IO between instances: /readyz checks it.
    usesRedis: true,
    subscriptions: (ctx) => subscriptions(ctx, runtimeOf(ctx)),
    routes: (app, ctx) => registerRoutes(app, ctx, () => runtimeOf(ctx).push),
    onListening: (server, ctx) => runtimeOf(ctx).realtime.attach(server),
    beforeClose: (ctx) => runtimes.get(ctx)?.realtime.closeTransports(),
    onStop: async (ctx) => {
      await runtimes.get(ctx)?.close();
    },
  };
}

export const notificationsService = defineNotificationsService();
