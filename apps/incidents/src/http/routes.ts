import type { Express } from 'express';
import { requireAuth } from '@academy/auth';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { incidentsRouter } from '../incidents/incidents.routes.ts';
import { timeRecordsRouter } from '../time-records/time-records.routes.ts';

export function registerRoutes(app: Express, ctx: IncidentsContext): void {
  const auth = requireAuth(ctx.verifier, { message: 'Unauthorized' });
  app.use('/api/v2/timerecord', auth, timeRecordsRouter(ctx));
  app.use('/api/v2/incident', auth, incidentsRouter(ctx));
}
