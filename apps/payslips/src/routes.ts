import type { Express } from 'express';
import { registerBatchRoutes } from './batches/batches.routes.ts';
import { registerPayslipRoutes } from './payslips/payslips.routes.ts';
import type { PayslipsContext } from './shared/payslips-context.ts';

/** Mounts every feature's routes (batches first: `/batches` is not a payslip id); a new feature adds its line here. */
export function registerRoutes(app: Express, ctx: PayslipsContext): void {
  registerBatchRoutes(app, ctx);
  registerPayslipRoutes(app, ctx);
}
