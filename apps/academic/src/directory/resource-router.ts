import type { Request } from 'express';
import type { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { DirectoryApi } from '@academy/contracts';
import type { routeBinder } from '@academy/service';

/** The five operations of a directory resource, as the routes call them. */
export interface Resource<Q, C, U> {
  list: (em: EntityManager, query: Q) => Promise<unknown>;
  get: (em: EntityManager, id: number) => Promise<unknown>;
  create: (em: EntityManager, input: C, req: Request) => Promise<unknown>;
  update: (em: EntityManager, id: number, input: U, req: Request) => Promise<unknown>;
  remove: (em: EntityManager, id: number, req: Request) => Promise<unknown>;
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
  list: domain.list,
  get: itemOf(domain),
  create: domain.create,
  update: domain.update,
  remove: domain.deactivate,
});

/** Binds the five declared routes of a directory resource to its operations. */
export function bindResource<Q extends z.ZodType, C extends z.ZodType, U extends z.ZodType>(
  bind: ReturnType<typeof routeBinder>,
  em: () => EntityManager,
  api: DirectoryApi<Q, C, U>,
  resource: Resource<z.output<Q>, z.output<C>, z.output<U>>,
): void {
  bind(api.list, async ({ query, res }) => {
    res.json(await resource.list(em(), query));
  });
  bind(api.create, async ({ body, req, res }) => {
    res.status(201).json(await resource.create(em(), body, req));
  });
  bind(api.get, async ({ params, res }) => {
    res.json(await resource.get(em(), params.id));
  });
  bind(api.update, async ({ params, body, req, res }) => {
    res.json(await resource.update(em(), params.id, body, req));
  });
  bind(api.remove, async ({ params, req, res }) => {
    res.json(await resource.remove(em(), params.id, req));
  });
}
