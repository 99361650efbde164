import { Router, type Express, type Request } from 'express';
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
import { idParam, requestId } from '@academy/kit';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ServiceContext } from '@academy/service';
import type { Config } from '../config.ts';
import { centers, employees, guardians, students, subjects, users } from '../domain/directory.ts';
import { calendarEvents, registrations } from '../domain/calendar.ts';

/** The five operations of a directory resource, as the routes call them. */
interface Resource<Q, C, U> {
  list: (em: EntityManager, query: Q) => Promise<unknown>;
  get: (em: EntityManager, id: number) => Promise<unknown>;
  create: (em: EntityManager, input: C, req: Request) => Promise<unknown>;
  update: (em: EntityManager, id: number, input: U, req: Request) => Promise<unknown>;
  remove: (em: EntityManager, id: number, req: Request) => Promise<unknown>;
}

function resourceRouter<Q, C, U>(em: () => EntityManager, schemas: { query: z.ZodType<Q>; create: z.ZodType<C>; update: z.ZodType<U> }, resource: Resource<Q, C, U>) {
  const router = Router();
  router.get('/', async (req, res) => {
    res.json(await resource.list(em(), schemas.query.parse(req.query)));
  });
  router.post('/', async (req, res) => {
    res.status(201).json(await resource.create(em(), schemas.create.parse(req.body), req));
  });
  router.get('/:id', async (req, res) => {
    res.json(await resource.get(em(), idParam(req.params, 'id')));
  });
  router.patch('/:id', async (req, res) => {
    const id = idParam(req.params, 'id');
    res.json(await resource.update(em(), id, schemas.update.parse(req.body), req));
  });
  router.delete('/:id', async (req, res) => {
    res.json(await resource.remove(em(), idParam(req.params, 'id'), req));
  });
  return router;
}

const meta = (req: Request) => ({ correlationId: requestId(req) });

/** Admin directory: users, employees, students, guardians, subjects, centers, registrations, calendar events. */
export function registerDirectoryRoutes(app: Express, ctx: ServiceContext<Config>): void {
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

  app.use(
    '/api/v2/users',
    admin,
    resourceRouter(em, { ...page, create: UserCreateBody, update: UserUpdateBody }, {
      list: users.list,
      get: async (e, id) => users.item(await users.get(e, id)),
      create: announced((e, input, req) => users.create(e, input, meta(req))),
      update: announced((e, id, input, req) => users.update(e, id, input, meta(req))),
      remove: users.deactivate,
    }),
  );
  app.use(
    '/api/v2/employees',
    admin,
    resourceRouter(em, { ...page, create: EmployeeCreateBody, update: EmployeeUpdateBody }, {
      list: employees.list,
      get: async (e, id) => employees.item(await employees.get(e, id)),
      create: announced((e, input, req) => employees.create(e, input, meta(req))),
      update: announced((e, id, input, req) => employees.update(e, id, input, meta(req))),
      remove: announced((e, id, req) => employees.deactivate(e, id, meta(req))),
    }),
  );
  app.use(
    '/api/v2/students',
    admin,
    resourceRouter(em, { ...page, create: StudentCreateBody, update: StudentUpdateBody }, {
      list: students.list,
      get: async (e, id) => students.item(await students.get(e, id)),
      create: students.create,
      update: students.update,
      remove: students.deactivate,
    }),
  );
  app.use(
    '/api/v2/guardians',
    admin,
    resourceRouter(em, { ...page, create: GuardianCreateBody, update: GuardianUpdateBody }, {
      list: guardians.list,
      get: async (e, id) => guardians.item(await guardians.get(e, id)),
      create: guardians.create,
      update: guardians.update,
      remove: guardians.deactivate,
    }),
  );
  app.use(
    '/api/v2/subjects',
    admin,
    resourceRouter(em, { ...page, create: SubjectCreateBody, update: SubjectUpdateBody }, {
      list: subjects.list,
      get: subjects.get,
      create: subjects.create,
      update: subjects.update,
      remove: subjects.deactivate,
    }),
  );
  app.use(
    '/api/v2/centers',
    admin,
    resourceRouter(em, { ...page, create: CenterCreateBody, update: CenterUpdateBody }, {
      list: centers.list,
      get: async (e, id) => centers.item(await centers.get(e, id)),
      create: centers.create,
      update: centers.update,
      remove: centers.deactivate,
    }),
  );
  app.use(
    '/api/v2/registrations',
    admin,
    resourceRouter(em, { query: RegistrationListQuery, create: RegistrationCreateBody, update: RegistrationUpdateBody }, registrations),
  );
  app.use(
    '/api/v2/calendar-events',
    admin,
    resourceRouter(em, { query: CalendarEventListQuery, create: CalendarEventCreateBody, update: CalendarEventUpdateBody }, calendarEvents),
  );
}
