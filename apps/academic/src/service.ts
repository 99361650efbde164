import type { ServiceDefinition } from '@academy/service';
import type { Config } from './config.ts';
import { entities } from './entities.ts';
import { migrations } from './migrations/index.ts';
import { registerRoutes } from './routes.ts';
import { stopAuth } from './auth/auth.routes.ts';
import { startAttendanceReminders, stopAttendanceReminders } from './attendance/attendance-reminders.ts';

export const academicService: ServiceDefinition<Config> = {
  name: 'academic',
  entities,
  migrations,
  usesRedis: false,
  routes: registerRoutes,
  onListening: (_server, ctx) => startAttendanceReminders(ctx),
  onStop: async (ctx) => {
    await stopAttendanceReminders(ctx);
    stopAuth(ctx);
  },
};
