import { personalFieldNames } from '@academy/privacy';
import type { ServiceDefinition } from '@academy/service';
import type { Config } from './config.ts';
import { entities } from './entities.ts';
import { migrations } from './migrations/index.ts';
import { registerRoutes } from './routes.ts';
import { startBackgroundWork } from './background.ts';
import { startRealtime } from './realtime/start-realtime.ts';
import { notificationsProviders } from './privacy.ts';
import { subscriptions } from './subscriptions.ts';
import { createNotificationsContext, type NotificationsContext, type NotificationsOverrides } from './notifications-context.ts';

/** The service; tests replace FCM's `Messaging` or the SMTP transport through `overrides`. */
export function defineNotificationsService(overrides: NotificationsOverrides = {}): ServiceDefinition<Config, NotificationsContext> {
  return {
    name: 'notifications',
    entities,
    migrations,
    // Redis carries Socket.IO between instances: /readyz checks it.
    readinessNeedsRedis: true,
    personalFields: personalFieldNames(notificationsProviders),
    setup: (ctx) => {
      const deps = createNotificationsContext(ctx, overrides);
      let stopRealtime = () => {};
      let stopBackgroundWork = async () => {};
      let stopPrivacy = async () => {};
      return {
        deps,
        routes: (app) => registerRoutes(app, deps),
        subscriptions: async () => {
          stopPrivacy = (await subscriptions(deps)).stop;
        },
        // Its sockets and timers start once the service listens, and stop with it.
        listening: (server) => {
          stopRealtime = startRealtime(deps, server);
          stopBackgroundWork = startBackgroundWork(deps);
        },
        beforeClose: () => deps.realtime.closeTransports(),
        stop: async () => {
          stopRealtime();
          await stopBackgroundWork();
          await stopPrivacy();
          await deps.close();
        },
      };
    },
  };
}

export const notificationsService = defineNotificationsService();
