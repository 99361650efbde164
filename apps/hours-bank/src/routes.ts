import type { Express } from 'express';
import { hoursBankApi } from '@academy/contracts';
import { PART_PATH, privacyPartRoutes, privacyStorage } from '@academy/privacy';
import { mountImplementations } from '@academy/service';
import { hoursBankRoutes } from './hours-bank/hours-bank.routes.ts';
import type { HoursBankContext } from './shared/hours-bank-context.ts';

/** Mounts every feature's routes; a route of the service's family with no handler fails the start. */
export function registerRoutes(app: Express, ctx: HoursBankContext): void {
  mountImplementations(app, ctx, [hoursBankRoutes], { families: [hoursBankApi] });
  // The service's export part of a personal data request, read by academic (internal, x-api-key; not behind the gateway).
  app.use(PART_PATH, privacyPartRoutes({ orm: ctx.orm, storage: privacyStorage(ctx.config), apiKey: ctx.config.PRIVACY_API_KEY, clock: ctx.clock }));
}
