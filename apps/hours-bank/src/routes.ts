import type { Express } from 'express';
import { hoursBankApi } from '@academy/contracts';
import { mountImplementations } from '@academy/service';
import { hoursBankRoutes } from './hours-bank/hours-bank.routes.ts';
import type { HoursBankContext } from './shared/hours-bank-context.ts';

/** Mounts every feature's routes; a route of the service's family with no handler fails the start. */
export function registerRoutes(app: Express, ctx: HoursBankContext): void {
  mountImplementations(app, ctx, [hoursBankRoutes], { families: [hoursBankApi] });
}
