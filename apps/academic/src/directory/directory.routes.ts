// Admin CRUD of the academy's people and structure. Deleting deactivates (the rows are referenced
// by registrations and history), except registrations and calendar events, which are deleted.
import type { z } from 'zod';
import { calendarEventsApi, centersApi, employeesApi, guardiansApi, registrationsApi, studentsApi, subjectsApi, usersApi, type UserUpdateBody } from '@academy/contracts';
import type { Actor } from '@academy/auth';
import type { AcademicContext } from '../shared/academic-context.ts';
import { directoryResource, itemOf, resourceRoutes } from './resource-router.ts';
import { users } from './users.ts';
import { employees } from './employees.ts';
import { students } from './students.ts';
import { guardians } from './guardians.ts';
import { subjects } from './subjects.ts';
import { centers } from './centers.ts';
import { registrations } from './registrations.ts';
import { calendarEvents } from './calendar-events.ts';

const meta = (actor: Actor) => ({ correlationId: actor.correlationId });
/** A write that may record `employee.upserted` also needs the key of the tax id's digest. */
const employeeMeta = (ctx: AcademicContext, actor: Actor) => ({ ...meta(actor), taxIdDigestKey: ctx.config.TAX_ID_DIGEST_KEY });
/** After a write that may record events: once it has committed, the relay publishes them now. */
const announced = (ctx: AcademicContext) => ctx.relay.nudge();

// A deactivated user, or one whose token claims (role, employee, student) or password change, is
// logged out everywhere: their sessions end, and every verifier refuses their access tokens within seconds.
const endsSessions = (input: z.infer<typeof UserUpdateBody>) =>
  input.active === false || input.role !== undefined || input.employeeId !== undefined || input.studentId !== undefined || input.password !== undefined;

const userRoutes = resourceRoutes(
  usersApi,
  {
    list: (ctx, query) => users.list(ctx.orm.em, query),
    get: (ctx, id) => itemOf(users)(ctx.orm.em, id),
    create: (ctx, input, actor) => users.create(ctx.orm.em, input, employeeMeta(ctx, actor)),
    update: async (ctx, id, input, actor) => {
      const item = await users.update(ctx.orm.em, id, input, employeeMeta(ctx, actor));
      if (endsSessions(input)) await ctx.sessions.endUserSessions(ctx.orm.em, id);
      return item;
    },
    remove: async (ctx, id) => {
      const item = await users.deactivate(ctx.orm.em, id);
      await ctx.sessions.endUserSessions(ctx.orm.em, id);
      return item;
    },
  },
  announced,
);

const employeeRoutes = resourceRoutes(
  employeesApi,
  {
    list: (ctx, query) => employees.list(ctx.orm.em, query),
    get: (ctx, id) => itemOf(employees)(ctx.orm.em, id),
    create: (ctx, input, actor) => employees.create(ctx.orm.em, input, employeeMeta(ctx, actor)),
    update: (ctx, id, input, actor) => employees.update(ctx.orm.em, id, input, employeeMeta(ctx, actor)),
    remove: (ctx, id, actor) => employees.deactivate(ctx.orm.em, id, meta(actor)),
  },
  announced,
);

const calendarEventRoutes = resourceRoutes(
  calendarEventsApi,
  {
    list: (ctx, query) => calendarEvents.list(ctx.orm.em, query),
    get: (ctx, id) => calendarEvents.get(ctx.orm.em, id),
    create: (ctx, input, actor) => calendarEvents.create(ctx.orm.em, input, meta(actor)),
    update: (ctx, id, input, actor) => calendarEvents.update(ctx.orm.em, id, input, meta(actor)),
    remove: (ctx, id, actor) => calendarEvents.remove(ctx.orm.em, id, meta(actor)),
  },
  announced,
);

/** The directory's resources (users, employees, students, guardians, subjects, centers, registrations, calendar events), each its five routes: admins only. */
export const directoryRoutes = [
  userRoutes,
  employeeRoutes,
  resourceRoutes(studentsApi, directoryResource(students)),
  resourceRoutes(guardiansApi, directoryResource(guardians)),
  resourceRoutes(subjectsApi, {
    list: (ctx, query) => subjects.list(ctx.orm.em, query),
    get: (ctx, id) => subjects.get(ctx.orm.em, id),
    create: (ctx, input) => subjects.create(ctx.orm.em, input),
    update: (ctx, id, input) => subjects.update(ctx.orm.em, id, input),
    remove: (ctx, id) => subjects.deactivate(ctx.orm.em, id),
  }),
  resourceRoutes(centersApi, directoryResource(centers)),
  resourceRoutes(registrationsApi, {
    list: (ctx, query) => registrations.list(ctx.orm.em, query),
    get: (ctx, id) => registrations.get(ctx.orm.em, id),
    create: (ctx, input) => registrations.create(ctx.orm.em, input),
    update: (ctx, id, input) => registrations.update(ctx.orm.em, id, input),
    remove: (ctx, id) => registrations.remove(ctx.orm.em, id),
  }),
  calendarEventRoutes,
];

/** The directory's route families, for the start's check that each route has a handler. */
export const directoryFamilies = [usersApi, employeesApi, studentsApi, guardiansApi, subjectsApi, centersApi, registrationsApi, calendarEventsApi].map((api) => api.family);
