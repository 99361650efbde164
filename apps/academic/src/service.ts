import type { ServiceDefinition } from '@academy/service';
import type { Config } from './config.ts';
import { entities } from './entities.ts';
import { migrations } from './migrations/index.ts';
import { registerRoutes } from './routes.ts';
import { createAcademicContext, type AcademicContext } from './shared/academic-context.ts';
import { createLoginProtection } from './auth/login-protection.ts';
import { startAttendanceReminders } from './attendance/attendance-reminders.ts';

export const academicService: ServiceDefinition<Config, AcademicContext> = {
  name: 'academic',
  entities,
  migrations,
  readinessNeedsRedis: false,
  setup: (ctx) => {
    const deps = createAcademicContext(ctx);
    const loginProtection = createLoginProtection(ctx.config, ctx.logger);
    let stopReminders = async () => {};
    return {
      deps,
      routes: (app) => registerRoutes(app, deps, loginProtection),
      listening: () => {
        stopReminders = startAttendanceReminders(deps);
      },
      stop: async () => {
        await stopReminders();
        loginProtection.close();
      },
    };
  },
};
