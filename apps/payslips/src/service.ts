import type { ServiceDefinition } from '@academy/service';
import type { Config } from './config.ts';
import { entities } from './entities.ts';
import { scheduleHousekeeping } from './housekeeping.ts';
import { migrations } from './migrations/index.ts';
import { registerRoutes } from './routes.ts';
import { createPayslipsContext, type PayslipsContext } from './shared/payslips-context.ts';
import { PAYSLIPS_PERSONAL_FIELDS } from './privacy/payslips.privacy.ts';
import { subscriptions } from './subscriptions.ts';

export const payslipsService: ServiceDefinition<Config, PayslipsContext> = {
  name: 'payslips',
  entities,
  migrations,
  personalFields: PAYSLIPS_PERSONAL_FIELDS,
  setup: (serviceContext) => {
    const ctx = createPayslipsContext(serviceContext);
    let stopHousekeeping = () => {};
    let stopPrivacy = async () => {};
    return {
      deps: ctx,
      routes: (app) => registerRoutes(app, ctx),
      subscriptions: async () => {
        stopPrivacy = (await subscriptions(ctx)).stop;
      },
      listening: () => {
        stopHousekeeping = scheduleHousekeeping(ctx);
      },
      stop: async () => {
        stopHousekeeping();
        await stopPrivacy();
        // Reads still running are left `reading` (resumed by the next instance) once the workers stop.
        ctx.stopping = true;
        await ctx.pdf.close();
        await Promise.allSettled([...ctx.reads]);
      },
    };
  },
};
