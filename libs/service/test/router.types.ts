// A type test of the typed router (tsd-style): each `@ts-expect-error` below must be an error, so
// `nx typecheck service` fails if the compiler ever lets a missing or extra handler, an undeclared
// status or a wrong body through. Compiled only, never run.
import { z } from 'zod';
import type { Actor } from '@academy/auth';
import { contract, jsonContent, routeFamily } from '@academy/contracts';
import { implementFor, type ServiceContext } from '../src/index.ts';

const family = routeFamily({ prefix: '/fixture', service: 'hours-bank', access: 'bearer', errorStyle: 'default', unauthorizedMessage: 'Unauthorized', tags: ['Fixture'] });
const Thing = z.object({ id: z.number(), name: z.string() });
const fixtureContract = contract({
  read: family.route({ method: 'get', path: '/fixture/{id}', summary: 'read', request: { params: z.object({ id: z.coerce.number() }) }, responses: { 200: jsonContent(Thing, 'The thing') } }),
  create: family.route({ method: 'post', path: '/fixture', summary: 'create', request: { body: z.object({ name: z.string() }) }, responses: { 201: jsonContent(Thing, 'Created') } }),
  health: family.route({ method: 'get', path: '/fixture/health', summary: 'health', access: 'public', responses: { 204: { description: 'Up' } } }),
});

const implement = implementFor<ServiceContext>();

// The right shape compiles: each input typed from the route's schemas, the caller an Actor on a bearer route and null on a public one.
implement(fixtureContract, {
  read: async ({ params }, _ctx, actor: Actor) => ({ status: 200, body: { id: params.id, name: String(actor.userId) } }),
  create: async ({ body }) => ({ status: 201, body: { id: 1, name: body.name } }),
  health: async (_input, _ctx, _actor: null) => ({ status: 204 }),
});

// @ts-expect-error a missing handler (`health`)
implement(fixtureContract, {
  read: async ({ params }) => ({ status: 200, body: { id: params.id, name: 'a' } }),
  create: async ({ body }) => ({ status: 201, body: { id: 1, name: body.name } }),
});

implement(fixtureContract, {
  read: async ({ params }) => ({ status: 200, body: { id: params.id, name: 'a' } }),
  create: async ({ body }) => ({ status: 201, body: { id: 1, name: body.name } }),
  health: async () => ({ status: 204 }),
  // @ts-expect-error an extra handler, for a route the contract does not declare
  remove: async () => ({ status: 204 }),
});

implement(fixtureContract, {
  // @ts-expect-error a body its schema refuses (`name` missing)
  read: async ({ params }) => ({ status: 200, body: { id: params.id } }),
  // @ts-expect-error a status the route does not declare (201 only)
  create: async ({ body }) => ({ status: 200, body: { id: 1, name: body.name } }),
  health: async () => ({ status: 204 }),
});

implement(fixtureContract, {
  // @ts-expect-error an input the route does not have (`read` declares no body)
  read: async ({ body }) => ({ status: 200, body: { id: body.id, name: 'a' } }),
  create: async ({ body }) => ({ status: 201, body: { id: 1, name: body.name } }),
  // @ts-expect-error a public route has no caller
  health: async (_input, _ctx, actor: Actor) => ({ status: actor ? 204 : 204 }),
});
