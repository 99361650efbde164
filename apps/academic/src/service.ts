import type { ServiceDefinition } from '@academy/service';
import type { Config } from './config.ts';
import { entities } from './entities.ts';
import { migrations } from './migrations/index.ts';
import { registerRoutes } from './routes.ts';
import { createAcademicContext, type AcademicContext } from './shared/academic-context.ts';
import { startAttendanceReminders } from './attendance/attendance-reminders.ts';
import { startPendingDigests } from './blocks/pending-digests.ts';
import { startKeptRecordsPurge } from './privacy-requests/purge-kept-records.ts';
import { startOverdueCheck } from './privacy-requests/flag-overdue-parts.ts';
import { subscriptions } from './subscriptions.ts';

export const academicService: ServiceDefinition<Config, AcademicContext> = {
  name: 'academic',
  entities,
  migrations,
  readinessNeedsRedis: false,
  setup: (ctx) => {
    const deps = createAcademicContext(ctx);
    let stopReminders = async () => {};
    let stopDigests = async () => {};
    let stopPurge = async () => {};
    let stopOverdue = async () => {};
    let stopPrivacy = async () => {};
    return {
      deps,
      routes: (app) => registerRoutes(app, deps),
      subscriptions: async () => {
        stopPrivacy = (await subscriptions(deps)).stop;
      },
      listening: () => {
        stopReminders = startAttendanceReminders(deps);
        stopDigests = startPendingDigests(deps);
        stopPurge = startKeptRecordsPurge(deps);
        stopOverdue = startOverdueCheck(deps);
      },
      stop: async () => {
        await stopReminders();
        await stopDigests();
        await stopPurge();
        await stopOverdue();
        await stopPrivacy();
        deps.loginProtection.close();
      },
    };
  },
};
