// Admin CRUD of the academy's people and structure. Deleting deactivates (the rows are referenced
// by registrations and history), except registrations and calendar events, which are deleted.
import type { Express, Request } from 'express';
import type { z } from 'zod';
import { calendarEventsApi, centersApi, employeesApi, guardiansApi, registrationsApi, studentsApi, subjectsApi, usersApi, type UserUpdateBody } from '@academy/contracts';
import { requestId } from '@academy/kit';
import { routeBinder } from '@academy/service';
import type { AcademicContext } from '../shared/academic-context.ts';
import { bindResource, directoryResource, itemOf } from './resource-router.ts';
import { users } from './users.ts';
import { employees } from './employees.ts';
import { students } from './students.ts';
import { guardians } from './guardians.ts';
import { subjects } from './subjects.ts';
import { centers } from './centers.ts';
import { registrations } from './registrations.ts';
import { calendarEvents } from './calendar-events.ts';

const meta = (req: Request) => ({ correlationId: requestId(req) });

/** Admin directory: users, employees, students, guardians, subjects, centers, registrations, calendar events. */
export function registerDirectoryRoutes(app: Express, ctx: AcademicContext): void {
  const bind = routeBinder(app, ctx);
  const em = () => ctx.orm.em;
  /** Wraps a write that may record events: once it has committed, the relay publishes them now. */
  const announced =
    <A extends unknown[]>(write: (...args: A) => Promise<unknown>) =>
    async (...args: A) => {
      const result = await write(...args);
      ctx.relay.nudge();
      return result;
    };

  // A deactivated user, or one whose token claims (role, employee, student) or password change, is
  // logged out everywhere: their sessions end, and every verifier refuses their access tokens within seconds.
  const { sessions } = ctx;
  const endsSessions = (input: z.infer<typeof UserUpdateBody>) =>
    input.active === false || input.role !== undefined || input.employeeId !== undefined || input.studentId !== undefined || input.password !== undefined;
  bindResource(bind, em, usersApi, {
    list: users.list,
    get: itemOf(users),
    create: announced((e, input, req) => users.create(e, input, meta(req))),
    update: announced(async (e, id, input, req) => {
      const item = await users.update(e, id, input, meta(req));
      if (endsSessions(input)) await sessions.endUserSessions(e, id);
      return item;
    }),
    remove: async (e, id) => {
      const item = await users.deactivate(e, id);
      await sessions.endUserSessions(e, id);
      return item;
    },
  });
  bindResource(bind, em, employeesApi, {
    list: employees.list,
    get: itemOf(employees),
    create: announced((e, input, req) => employees.create(e, input, meta(req))),
    update: announced((e, id, input, req) => employees.update(e, id, input, meta(req))),
    remove: announced((e, id, req) => employees.deactivate(e, id, meta(req))),
  });
  bindResource(bind, em, studentsApi, directoryResource(students));
  bindResource(bind, em, guardiansApi, directoryResource(guardians));
  bindResource(bind, em, subjectsApi, { ...subjects, remove: subjects.deactivate });
  bindResource(bind, em, centersApi, directoryResource(centers));
  bindResource(bind, em, registrationsApi, registrations);
  bindResource(bind, em, calendarEventsApi, {
    list: calendarEvents.list,
    get: calendarEvents.get,
    create: announced((e, input, req) => calendarEvents.create(e, input, meta(req))),
    update: announced((e, id, input, req) => calendarEvents.update(e, id, input, meta(req))),
    remove: announced((e, id, req) => calendarEvents.remove(e, id, meta(req))),
  });
}
