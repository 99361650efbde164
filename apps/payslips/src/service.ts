import type { ServiceDefinition } from '@academy/service';
import type { Config } from './config.ts';
import { entities } from './entities.ts';
import { scheduleHousekeeping } from './housekeeping.ts';
import { migrations } from './migrations/index.ts';
import { registerRoutes } from './routes.ts';
import { createPayslips, type Payslips } from './shared/payslips-context.ts';
import { subscriptions } from './subscriptions.ts';

export const payslipsService: ServiceDefinition<Config, Payslips> = {
  name: 'payslips',
  entities,
  migrations,
  setup: (ctx) => {
    const payslips = createPayslips(ctx);
    let stopHousekeeping = () => {};
    return {
      deps: payslips,
      routes: (app) => registerRoutes(app, ctx, payslips),
      subscriptions: () => subscriptions(ctx),
      listening: () => {
        stopHousekeeping = scheduleHousekeeping(payslips);
      },
      stop: async () => {
        stopHousekeeping();
        // Reads still running are left `reading` (resumed by the next instance) once the workers stop.
        payslips.stopping = true;
        await payslips.pdf.close();
        await Promise.allSettled([...payslips.reads]);
      },
    };
  },
};
