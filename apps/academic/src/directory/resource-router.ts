import type { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '@academy/auth';
import { contract, type DirectoryApi } from '@academy/contracts';
import type { Handlers, Implementation } from '@academy/service';
import { implement, type AcademicContext } from '../shared/academic-context.ts';

/** The five operations of a directory resource, as the routes call them: the context, the input, the caller. */
export interface Resource<Q, C, U> {
  list: (ctx: AcademicContext, query: Q) => Promise<unknown>;
  get: (ctx: AcademicContext, id: number) => Promise<unknown>;
  create: (ctx: AcademicContext, input: C, actor: Actor) => Promise<unknown>;
  update: (ctx: AcademicContext, id: number, input: U, actor: Actor) => Promise<unknown>;
  remove: (ctx: AcademicContext, id: number, actor: Actor) => Promise<unknown>;
}

/** A directory domain object: `get` finds the row (404 otherwise), `item` is its response body. */
interface DirectoryDomain<Q, C, U, T> {
  list: (em: EntityManager, query: Q) => Promise<unknown>;
  get: (em: EntityManager, id: number) => Promise<T>;
  item: (row: T) => unknown;
  create: (em: EntityManager, input: C) => Promise<unknown>;
  update: (em: EntityManager, id: number, input: U) => Promise<unknown>;
  deactivate: (em: EntityManager, id: number) => Promise<unknown>;
}

export const itemOf =
  <T>(domain: { get: (em: EntityManager, id: number) => Promise<T>; item: (row: T) => unknown }) =>
  async (em: EntityManager, id: number) =>
    domain.item(await domain.get(em, id));

/** The routes' view of a directory domain that records no events: DELETE deactivates. */
export const directoryResource = <Q, C, U, T>(domain: DirectoryDomain<Q, C, U, T>): Resource<Q, C, U> => ({
  list: (ctx, query) => domain.list(ctx.orm.em, query),
  get: (ctx, id) => itemOf(domain)(ctx.orm.em, id),
  create: (ctx, input) => domain.create(ctx.orm.em, input),
  update: (ctx, id, input) => domain.update(ctx.orm.em, id, input),
  remove: (ctx, id) => domain.deactivate(ctx.orm.em, id),
});

/**
 * Implements the five declared routes of a directory resource (its contract: list, create, get,
 * update, remove) with its operations; `afterWrite` runs once a write has answered (the relay's nudge).
 */
export function resourceRoutes<Q extends z.ZodType, C extends z.ZodType, U extends z.ZodType>(
  api: DirectoryApi<Q, C, U>,
  resource: Resource<z.output<Q>, z.output<C>, z.output<U>>,
  afterWrite: (ctx: AcademicContext) => void = () => {},
): Implementation<AcademicContext> {
  const routes = contract({ list: api.list, create: api.create, get: api.get, update: api.update, remove: api.remove });
  const written = async <T>(ctx: AcademicContext, write: Promise<T>) => {
    const answer = await write;
    afterWrite(ctx);
    return answer;
  };
  type Input = { params: { id: number }; query: z.output<Q>; body: never };
  const handlers = {
    list: async ({ query }: Input, ctx: AcademicContext) => ({ status: 200 as const, body: await resource.list(ctx, query) }),
    create: async ({ body }: { body: z.output<C> }, ctx: AcademicContext, actor: Actor) => ({ status: 201 as const, body: await written(ctx, resource.create(ctx, body, actor)) }),
    get: async ({ params }: Input, ctx: AcademicContext) => ({ status: 200 as const, body: await resource.get(ctx, params.id) }),
    update: async ({ params, body }: { params: { id: number }; body: z.output<U> }, ctx: AcademicContext, actor: Actor) => ({
      status: 200 as const,
      body: await written(ctx, resource.update(ctx, params.id, body, actor)),
    }),
    remove: async ({ params }: Input, ctx: AcademicContext, actor: Actor) => ({ status: 200 as const, body: await written(ctx, resource.remove(ctx, params.id, actor)) }),
  };
  // The compiler cannot resolve a generic resource's route types (its schemas are this function's
  // parameters): the handlers are typed by hand above, against the resource's operations.
  return implement(routes, handlers as unknown as Handlers<typeof routes, AcademicContext>);
}
