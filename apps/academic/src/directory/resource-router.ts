import type { z } from 'zod';
import type { Actor } from '@academy/auth';
import { contract, type DirectoryApi } from '@academy/contracts';
import type { Handlers, Implementation } from '@academy/service';
import { implement, type AcademicContext } from '../shared/academic-context.ts';
import type { ById } from './directory.types.ts';

/** The five use cases of a directory resource, each with the house's one signature: the context, one input, the caller. */
export interface Resource<Q, C, U> {
  list: (ctx: AcademicContext, input: Q, actor: Actor) => Promise<unknown>;
  get: (ctx: AcademicContext, input: ById, actor: Actor) => Promise<unknown>;
  create: (ctx: AcademicContext, input: C, actor: Actor) => Promise<unknown>;
  update: (ctx: AcademicContext, input: U & ById, actor: Actor) => Promise<unknown>;
  remove: (ctx: AcademicContext, input: ById, actor: Actor) => Promise<unknown>;
}

/** Implements the five declared routes of a directory resource (its contract: list, create, get, update, remove) with its use cases. */
export function resourceRoutes<Q extends z.ZodType, C extends z.ZodType, U extends z.ZodType>(
  api: DirectoryApi<Q, C, U>,
  resource: Resource<z.output<Q>, z.output<C>, z.output<U>>,
): Implementation<AcademicContext> {
  const routes = contract({ list: api.list, create: api.create, get: api.get, update: api.update, remove: api.remove });
  const handlers = {
    list: async ({ query }: { query: z.output<Q> }, ctx: AcademicContext, actor: Actor) => ({ status: 200 as const, body: await resource.list(ctx, query, actor) }),
    create: async ({ body }: { body: z.output<C> }, ctx: AcademicContext, actor: Actor) => ({ status: 201 as const, body: await resource.create(ctx, body, actor) }),
    get: async ({ params }: { params: ById }, ctx: AcademicContext, actor: Actor) => ({ status: 200 as const, body: await resource.get(ctx, { id: params.id }, actor) }),
    update: async ({ params, body }: { params: ById; body: z.output<U> }, ctx: AcademicContext, actor: Actor) => ({
      status: 200 as const,
      body: await resource.update(ctx, Object.assign({}, body, { id: params.id }), actor),
    }),
    remove: async ({ params }: { params: ById }, ctx: AcademicContext, actor: Actor) => ({ status: 200 as const, body: await resource.remove(ctx, { id: params.id }, actor) }),
  };
  // The compiler cannot resolve a generic resource's route types (its schemas are this function's
  // parameters): the handlers are typed by hand above, against the resource's use cases.
  return implement(routes, handlers as unknown as Handlers<typeof routes, AcademicContext>);
}
