import type { Express } from 'express';
import type { ServiceContext } from '@academy/service';
import type { Config } from './config.ts';
import { batchesRoutes } from './batches/batches.routes.ts';
import { payslipsRoutes } from './payslips/payslips.routes.ts';
import type { Payslips } from './shared/payslips-context.ts';

/** Mounts each feature's routes (batches first: `/batches` is not a payslip id). */
export function registerRoutes(app: Express, ctx: ServiceContext<Config>, payslips: Payslips): void {
  batchesRoutes(app, ctx, payslips);
  payslipsRoutes(app, ctx, payslips);
}
