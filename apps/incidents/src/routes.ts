import type { Express } from 'express';
import { incidentsApi, timeRecordsApi } from '@academy/contracts';
import { PART_PATH, privacyPartRoutes, privacyStorage } from '@academy/privacy';
import { mountImplementations } from '@academy/service';
import type { IncidentsContext } from './shared/incidents-context.ts';
import { incidentRoutes } from './incidents/incidents.routes.ts';
import { timeRecordRoutes } from './time-records/time-records.routes.ts';

/** Mounts every feature's routes; a route of the service's families with no handler fails the start. A new feature adds its implementation here. */
export function registerRoutes(app: Express, ctx: IncidentsContext): void {
  mountImplementations(app, ctx, [timeRecordRoutes, incidentRoutes], { families: [timeRecordsApi, incidentsApi] });
  // The service's export part of a personal data request, read by academic (internal, x-api-key; not behind the gateway).
  app.use(PART_PATH, privacyPartRoutes({ orm: ctx.orm, storage: privacyStorage(ctx.config), apiKey: ctx.config.PRIVACY_API_KEY, clock: ctx.clock }));
}
