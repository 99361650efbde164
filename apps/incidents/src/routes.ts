import type { Express } from 'express';
import type { IncidentsContext } from './shared/incidents-context.ts';
import { registerIncidentRoutes } from './incidents/incidents.routes.ts';
import { registerTimeRecordRoutes } from './time-records/time-records.routes.ts';

/** Mounts every feature's routes; a new feature adds its line here. */
export function registerRoutes(app: Express, deps: IncidentsContext): void {
  registerTimeRecordRoutes(app, deps);
  registerIncidentRoutes(app, deps);
}
