import type { Express } from 'express';
import { administrativeListingRoute } from '@academy/contracts';
import { routeBinder } from '@academy/service';
import type { AcademicContext } from '../shared/academic-context.ts';
import { administrativeListing } from './administrative-listing.ts';
import { ListingCache } from './listing-cache.ts';

export function registerStudentListingRoutes(app: Express, ctx: AcademicContext): void {
  const bind = routeBinder(app, ctx);
  const cache = new ListingCache();
  // Admin-only, as its name and the OpenAPI document say: a teacher gets 403 (they see their events' students instead).
  bind(administrativeListingRoute, async ({ query, res }) => {
    res.type('application/json').send(await cache.json(ctx.orm.em, query, () => administrativeListing(ctx.orm.em, query)));
  });
}
