import type { Express } from 'express';
import { requireAuth } from '@academy/auth';
import type { ServiceContext } from '@academy/service';
import type { Config } from './config.ts';
import { batchesRouter } from './batches/batches.routes.ts';
import { payslipsRouter } from './payslips/payslips.routes.ts';
import type { Payslips } from './shared/payslips-context.ts';

/** Mounts each feature's routes (batches first: `/batches` is not a payslip id). */
export function registerRoutes(app: Express, ctx: ServiceContext<Config>, payslips: Payslips): void {
  const auth = requireAuth(ctx.verifier, { message: 'Unauthorized' });
  app.use('/api/v2/payslips/batches', auth, batchesRouter(payslips));
  app.use('/api/v2/payslips', auth, payslipsRouter(payslips));
}
