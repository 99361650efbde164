import type { ServiceContext, ServiceDefinition } from '@academy/service';
import type { Config } from './config.ts';
import { entities } from './entities.ts';
import { scheduleHousekeeping } from './housekeeping.ts';
import { migrations } from './migrations/index.ts';
import { registerRoutes } from './routes.ts';
import { createPayslips, type Payslips, type PayslipsOverrides } from './shared/payslips-context.ts';
import { subscriptions } from './subscriptions.ts';

export type PayslipsService = ServiceDefinition<Config> & {
  /** The use cases' runtime of a started instance (tests run the purge with it). */
  payslipsOf: (ctx: ServiceContext<Config>) => Payslips;
};

/** The service; tests pin its clock through `overrides`. */
export function definePayslipsService(overrides: PayslipsOverrides = {}): PayslipsService {
  // One runtime per started instance (a test may start several from one definition).
  const runtimes = new WeakMap<ServiceContext<Config>, Payslips>();
  const stops = new WeakMap<ServiceContext<Config>, () => void>();
  const payslipsOf = (ctx: ServiceContext<Config>): Payslips => {
    let payslips = runtimes.get(ctx);
    if (!payslips) runtimes.set(ctx, (payslips = createPayslips(ctx, overrides)));
    return payslips;
  };
  return {
    payslipsOf,
    name: 'payslips',
    entities,
    migrations,
    subscriptions,
    routes: (app, ctx) => registerRoutes(app, ctx, payslipsOf(ctx)),
    onListening: (_server, ctx) => {
      stops.set(ctx, scheduleHousekeeping(payslipsOf(ctx)));
    },
    onStop: async (ctx) => {
      stops.get(ctx)?.();
      const payslips = runtimes.get(ctx);
      if (!payslips) return;
      // Reads still running are left `reading` (resumed by the next instance) once the workers stop.
      payslips.stopping = true;
      await payslips.pdf.close();
      await Promise.allSettled([...payslips.reads]);
    },
  };
}

export const payslipsService = definePayslipsService();
