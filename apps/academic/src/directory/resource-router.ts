import { Router, type Request } from 'express';
import type { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { idParam, noQuery } from '@academy/kit';

/** The five operations of a directory resource, as the routes call them. */
export interface Resource<Q, C, U> {
  list: (em: EntityManager, query: Q) => Promise<unknown>;
  get: (em: EntityManager, id: number) => Promise<unknown>;
  create: (em: EntityManager, input: C, req: Request) => Promise<unknown>;
  update: (em: EntityManager, id: number, input: U, req: Request) => Promise<unknown>;
  remove: (em: EntityManager, id: number, req: Request) => Promise<unknown>;
}

export type Schemas<Q, C, U> = { query: z.ZodType<Q>; create: z.ZodType<C>; update: z.ZodType<U> };

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

export function resourceRouter<Q, C, U>(em: () => EntityManager, schemas: Schemas<Q, C, U>, resource: Resource<Q, C, U>) {
  const router = Router();
  router.get('/', async (req, res) => {
    res.json(await resource.list(em(), schemas.query.parse(req.query)));
  });
  router.post('/', noQuery, async (req, res) => {
    res.status(201).json(await resource.create(em(), schemas.create.parse(req.body), req));
  });
  router.get('/:id', noQuery, async (req, res) => {
    res.json(await resource.get(em(), idParam(req.params, 'id')));
  });
  router.patch('/:id', noQuery, async (req, res) => {
    const id = idParam(req.params, 'id');
    res.json(await resource.update(em(), id, schemas.update.parse(req.body), req));
  });
  router.delete('/:id', noQuery, async (req, res) => {
    res.json(await resource.remove(em(), idParam(req.params, 'id'), req));
  });
  return router;
}
