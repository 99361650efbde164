import type { Express } from 'express';
import type { AcademicContext } from './shared/academic-context.ts';
import type { LoginProtection } from './auth/login-protection.ts';
import { registerAuthRoutes } from './auth/auth.routes.ts';
import { registerDirectoryRoutes } from './directory/directory.routes.ts';
import { registerSchoolCourseRoutes } from './school-courses/school-courses.routes.ts';
import { registerRegistrationRoutes } from './registration/registration.routes.ts';
import { registerStudentListingRoutes } from './listing/listing.routes.ts';
import { registerBlockRoutes } from './blocks/blocks.routes.ts';
import { registerAttendanceRoutes } from './attendance/attendance.routes.ts';

/** Mounts every feature's routes; a new feature adds its line here. */
export function registerRoutes(app: Express, ctx: AcademicContext, loginProtection: LoginProtection): void {
  // req.ip is the client the gateway saw, also when the gateway reaches academic over a private network.
  app.set('trust proxy', ctx.config.TRUST_PROXY.split(',').map((entry) => entry.trim()));
  registerAuthRoutes(app, ctx, loginProtection);
  registerDirectoryRoutes(app, ctx);
  registerSchoolCourseRoutes(app, ctx);
  registerRegistrationRoutes(app, ctx);
  registerStudentListingRoutes(app, ctx);
  registerBlockRoutes(app, ctx);
  registerAttendanceRoutes(app, ctx);
}
