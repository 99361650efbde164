// Admin CRUD of the academy's people and structure. Deleting deactivates (the rows are referenced
// by registrations and history), except registrations and calendar events, which are deleted.
import type { Express, Request } from 'express';
import type { z } from 'zod';
import {
  CalendarEventCreateBody,
  CalendarEventListQuery,
  CalendarEventUpdateBody,
  CenterCreateBody,
  CenterUpdateBody,
  DirectoryPageQuery,
  EmployeeCreateBody,
  EmployeeUpdateBody,
  GuardianCreateBody,
  GuardianUpdateBody,
  RegistrationCreateBody,
  RegistrationListQuery,
  RegistrationUpdateBody,
  StudentCreateBody,
  StudentUpdateBody,
  SubjectCreateBody,
  SubjectUpdateBody,
  UserCreateBody,
  UserUpdateBody,
} from '@academy/contracts';
import { requireAuth, requireRole } from '@academy/auth';
import { requestId } from '@academy/kit';
import type { AcademicContext } from '../shared/academic-context.ts';
import { directoryResource, itemOf, resourceRouter, type Resource, type Schemas } from './resource-router.ts';
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
  const em = () => ctx.orm.em;
  const admin = [requireAuth(ctx.verifier), requireRole('admin')];
  const page = { query: DirectoryPageQuery };
  /** Wraps a write that may record events: once it has committed, the relay publishes them now. */
  const announced =
    <A extends unknown[]>(write: (...args: A) => Promise<unknown>) =>
    async (...args: A) => {
      const result = await write(...args);
      ctx.relay.nudge();
      return result;
    };

  const mount = <Q, C, U>(path: string, schemas: Schemas<Q, C, U>, resource: Resource<Q, C, U>) => app.use(`/api/v2/${path}`, admin, resourceRouter(em, schemas, resource));

  // A deactivated user, or one whose token claims (role, employee, student) or password change, is
  // logged out everywhere: their sessions end, and every verifier refuses their access tokens within seconds.
  const { sessions } = ctx;
  const endsSessions = (input: z.infer<typeof UserUpdateBody>) =>
    input.active === false || input.role !== undefined || input.employeeId !== undefined || input.studentId !== undefined || input.password !== undefined;
  mount('users', { ...page, create: UserCreateBody, update: UserUpdateBody }, {
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
  mount('employees', { ...page, create: EmployeeCreateBody, update: EmployeeUpdateBody }, {
    list: employees.list,
    get: itemOf(employees),
    create: announced((e, input, req) => employees.create(e, input, meta(req))),
    update: announced((e, id, input, req) => employees.update(e, id, input, meta(req))),
    remove: announced((e, id, req) => employees.deactivate(e, id, meta(req))),
  });
  mount('students', { ...page, create: StudentCreateBody, update: StudentUpdateBody }, directoryResource(students));
  mount('guardians', { ...page, create: GuardianCreateBody, update: GuardianUpdateBody }, directoryResource(guardians));
  mount('subjects', { ...page, create: SubjectCreateBody, update: SubjectUpdateBody }, { ...subjects, remove: subjects.deactivate });
  mount('centers', { ...page, create: CenterCreateBody, update: CenterUpdateBody }, directoryResource(centers));
  mount('registrations', { query: RegistrationListQuery, create: RegistrationCreateBody, update: RegistrationUpdateBody }, registrations);
  mount('calendar-events', { query: CalendarEventListQuery, create: CalendarEventCreateBody, update: CalendarEventUpdateBody }, {
    list: calendarEvents.list,
    get: calendarEvents.get,
    create: announced((e, input, req) => calendarEvents.create(e, input, meta(req))),
    update: announced((e, id, input, req) => calendarEvents.update(e, id, input, meta(req))),
    remove: announced((e, id, req) => calendarEvents.remove(e, id, meta(req))),
  });
}
