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

type Schemas<Q, C, U> = { query: z.ZodType<Q>; create: z.ZodType<C>; update: z.ZodType<U> };

/** A directory domain object: `get` finds the row (404 otherwise), `item` is its response body. */
interface DirectoryDomain<Q, C, U, T> {
  list: (em: EntityManager, query: Q) => Promise<unknown>;
  get: (em: EntityManager, id: number) => Promise<T>;
  item: (row: T) => unknown;
  create: (em: EntityManager, input: C) => Promise<unknown>;
  update: (em: EntityManager, id: number, input: U) => Promise<unknown>;
  deactivate: (em: EntityManager, id: number) => Promise<unknown>;
}

const itemOf =
  <T>(domain: { get: (em: EntityManager, id: number) => Promise<T>; item: (row: T) => unknown }) =>
  async (em: EntityManager, id: number) =>
    domain.item(await domain.get(em, id));

/** The routes' view of a directory domain that records no events: DELETE deactivates. */
const directoryResource = <Q, C, U, T>(domain: DirectoryDomain<Q, C, U, T>): Resource<Q, C, U> => ({
  list: domain.list,
  get: itemOf(domain),
  create: domain.create,
  update: domain.update,
  remove: domain.deactivate,
});

function resourceRouter<Q, C, U>(em: () => EntityManager, schemas: Schemas<Q, C, U>, resource: Resource<Q, C, U>) {
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

  const mount = <Q, C, U>(path: string, schemas: Schemas<Q, C, U>, resource: Resource<Q, C, U>) => app.use(`/api/v2/${path}`, admin, resourceRouter(em, schemas, resource));

  mount('users', { ...page, create: UserCreateBody, update: UserUpdateBody }, {
    list: users.list,
    get: itemOf(users),
    create: announced((e, input, req) => users.create(e, input, meta(req))),
    update: announced((e, id, input, req) => users.update(e, id, input, meta(req))),
    remove: users.deactivate,
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
  mount('calendar-events', { query: CalendarEventListQuery, create: CalendarEventCreateBody, update: CalendarEventUpdateBody }, calendarEvents);
}
