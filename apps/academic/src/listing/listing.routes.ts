import type { Express } from 'express';
import { AdministrativeListingQuery } from '@academy/contracts';
import { requireAuth } from '@academy/auth';
import type { ServiceContext } from '@academy/service';
import type { Config } from '../config.ts';
import { administrativeListing } from './administrative-listing.ts';

export function registerStudentListingRoutes(app: Express, ctx: ServiceContext<Config>): void {
  app.get('/api/students/administrative', requireAuth(ctx.verifier), async (req, res) => {
    res.json(await administrativeListing(ctx.orm.em, AdministrativeListingQuery.parse(req.query)));
  });
}
