import type { Express } from 'express';
import { payslipsApi } from '@academy/contracts';
import { PART_PATH, privacyPartRoutes, privacyStorage } from '@academy/privacy';
import { mountImplementations } from '@academy/service';
import { batchRoutes } from './batches/batches.routes.ts';
import { payslipRoutes } from './payslips/payslips.routes.ts';
import type { PayslipsContext } from './shared/payslips-context.ts';

/**
 * Mounts every feature's routes (batches first: `/batches` is not a payslip id); a route of the
 * service's family with no handler fails the start. A new feature adds its implementation here.
 */
export function registerRoutes(app: Express, ctx: PayslipsContext): void {
  mountImplementations(app, ctx, [batchRoutes, payslipRoutes], { families: [payslipsApi] });
  // The service's export part of a personal data request, read by academic (internal, x-api-key; not behind the gateway).
  app.use(PART_PATH, privacyPartRoutes({ orm: ctx.orm, storage: privacyStorage(ctx.config), apiKey: ctx.config.PRIVACY_API_KEY, clock: ctx.clock }));
}
