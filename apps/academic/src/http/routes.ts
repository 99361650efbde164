import type { Express } from 'express';
import type { ServiceContext } from '@academy/service';
import type { Config } from '../config.ts';
import { authRouter } from '../auth/auth.routes.ts';
import { registerDirectoryRoutes } from './directory.routes.ts';
import { registerRegistrationRoutes } from './registration.routes.ts';
import { registerSchoolCourseRoutes } from './school-course.routes.ts';
import { registerStudentListingRoutes } from './students.routes.ts';

export function registerRoutes(app: Express, ctx: ServiceContext<Config>): void {
  app.use('/api/v2/auth', authRouter(ctx));
  registerDirectoryRoutes(app, ctx);
  registerSchoolCourseRoutes(app, ctx);
  registerRegistrationRoutes(app, ctx);
  registerStudentListingRoutes(app, ctx);
}
