import { consume } from '@academy/messaging';
import type { ServiceContext } from '@academy/service';
import type { Config } from '../config.ts';
import { onEmployeeDeleted } from './employee-deleted.handler.ts';
import { onEmployeeUpserted } from './employee-upserted.handler.ts';
import { onSchoolCourseCreated } from './school-course-created.handler.ts';
import { onSchoolCourseDeleted } from './school-course-deleted.handler.ts';

/**
 * Every queue of the service. `hours-bank.replicas` keeps the employees and school courses that
 * the hours bank checks locally (academic publishes them; `node apps/academic/src/republish.ts`
 * replays the current ones for a new deployment).
 */
export async function subscriptions(ctx: ServiceContext<Config>): Promise<void> {
  await consume(ctx.broker, {
    orm: ctx.orm,
    queue: ctx.config.REPLICAS_QUEUE,
    handlers: {
      'employee.upserted': onEmployeeUpserted,
      'employee.deleted': onEmployeeDeleted,
      'school-course.created': onSchoolCourseCreated,
      'school-course.deleted': onSchoolCourseDeleted,
    },
  });
}
