import type { Express } from 'express';
import { administrativeListingApi, attendanceApi, authApi, blocksApi, privacyRequestsApi, registrationApi, schoolCoursesApi } from '@academy/contracts';
import { PART_PATH, privacyPartRoutes } from '@academy/privacy';
import { mountImplementations } from '@academy/service';
import type { AcademicContext } from './shared/academic-context.ts';
import { attendanceRoutes } from './attendance/attendance.routes.ts';
import { authPreamble, authRoutes } from './auth/auth.routes.ts';
import { blockRoutes } from './blocks/blocks.routes.ts';
import { directoryFamilies, directoryRoutes } from './directory/directory.routes.ts';
import { listingRoutes } from './listing/listing.routes.ts';
import { registrationRoutes } from './registration/registration.routes.ts';
import { schoolCourseRoutes } from './school-courses/school-courses.routes.ts';
import { privacyRequestRoutes } from './privacy-requests/privacy-requests.routes.ts';

/**
 * Mounts every feature's routes; a route of the service's families with no handler fails the start
 * (the retired v1 update is bound as a public copy of its declaration, so its family is left out).
 * A new feature adds its implementation here.
 */
export function registerRoutes(app: Express, ctx: AcademicContext): void {
  // req.ip is the client the gateway saw, also when the gateway reaches academic over a private network.
  app.set('trust proxy', ctx.config.TRUST_PROXY.split(',').map((entry) => entry.trim()));
  app.use(authApi.prefix, ...authPreamble);
  mountImplementations(app, ctx, [authRoutes, ...directoryRoutes, schoolCourseRoutes, registrationRoutes, listingRoutes, blockRoutes, attendanceRoutes, privacyRequestRoutes], { families: [authApi, ...directoryFamilies, schoolCoursesApi, registrationApi, administrativeListingApi, blocksApi, attendanceApi, privacyRequestsApi] });
  // Academic's own export part, read like every service's (internal, x-api-key; not behind the gateway).
  app.use(PART_PATH, privacyPartRoutes({ orm: ctx.orm, storage: ctx.privacyStorage, apiKey: ctx.config.PRIVACY_API_KEY, clock: ctx.clock }));
}
