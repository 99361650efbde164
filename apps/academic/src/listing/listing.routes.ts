import type { Express } from 'express';
import { AdministrativeListingQuery } from '@academy/contracts';
import { requireAuth, requireRole } from '@academy/auth';
import type { AcademicContext } from '../shared/academic-context.ts';
import { administrativeListing } from './administrative-listing.ts';
import { ListingCache } from './listing-cache.ts';

export function registerStudentListingRoutes(app: Express, ctx: AcademicContext): void {
  const cache = new ListingCache();
  // Admin-only, as its name and the OpenAPI document say: a teacher gets 403 (they see their events' students instead).
  app.get('/api/students/administrative', requireAuth(ctx.verifier), requireRole('admin'), async (req, res) => {
    const query = AdministrativeListingQuery.parse(req.query);
    res.type('application/json').send(await cache.json(ctx.orm.em, query, () => administrativeListing(ctx.orm.em, query)));
  });
}
