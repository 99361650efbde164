import type { Express } from 'express';
import type { ServiceContext } from '@academy/service';
import { requireAuth } from '@academy/auth';
import type { Config } from '../config.ts';
import { incidentsOf } from '../shared/incidents-context.ts';
import { incidentsRouter } from '../incidents/incidents.routes.ts';
import { timeRecordsRouter } from '../time-records/time-records.routes.ts';

export function registerRoutes(app: Express, ctx: ServiceContext<Config>): void {
  const incidents = incidentsOf(ctx);
  const auth = requireAuth(ctx.verifier, { message: 'Unauthorized' });
  app.use('/api/v2/timerecord', auth, timeRecordsRouter(incidents));
  app.use('/api/v2/incident', auth, incidentsRouter(incidents));
}
