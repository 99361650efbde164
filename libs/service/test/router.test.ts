import { describe, expect, test } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { z } from 'zod';
import type { TokenVerifier } from '@academy/auth';
import { contract, jsonContent, routeFamily } from '@academy/contracts';
import type { Logger } from '@academy/kit';
import { implementFor, mountImplementations } from '../src/index.ts';

const family = routeFamily({ prefix: '/router-test', service: 'hours-bank', access: 'public', errorStyle: 'default', unauthorizedMessage: 'Unauthorized', tags: ['Router test'] });
const greetRoute = family.route({
  method: 'get',
  path: '/router-test/{name}',
  summary: 'greet',
  request: { params: z.object({ name: z.string() }) },
  responses: { 201: jsonContent(z.object({ greeting: z.string() }), 'Greeted') },
});
const forgottenRoute = family.route({ method: 'delete', path: '/router-test/{name}', summary: 'forgotten', request: { params: z.object({ name: z.string() }) }, responses: { 204: { description: 'Gone' } } });

const ctx = { verifier: {} as TokenVerifier, logger: { debug() {}, error() {} } as unknown as Logger };
const implement = implementFor<typeof ctx>();
const greetings = implement(contract({ greet: greetRoute }), {
  greet: async ({ params }) => ({ status: 201, body: { greeting: `hello ${params.name}` } }),
});

const renameRoute = family.route({
  method: 'post',
  path: '/router-test/{name}',
  summary: 'rename',
  request: { params: z.object({ name: z.string() }) },
  responses: { 200: jsonContent(z.object({ renamed: z.string() }), 'Renamed') },
});
const renames = implement(contract({ rename: renameRoute }), {
  rename: async ({ params }) => ({ status: 200, body: { renamed: `${params.name}!` } }),
});

describe('the typed router (implement, mountImplementations)', () => {
  test("a read's JSON answer carries Express's ETag (a conditional read is 304); a write's the same JSON and headers without one", async () => {
    const app = express();
    mountImplementations(app, ctx, [greetings, renames]);
    const read = await request(app).get('/router-test/ana');
    expect(read.headers.etag).toEqual(expect.any(String));
    expect((await request(app).get('/router-test/ana').set('if-none-match', read.headers.etag!)).status).toBe(304);
    const write = await request(app).post('/router-test/ana');
    expect(write.status).toBe(200);
    expect(write.text).toBe(JSON.stringify({ renamed: 'ana!' }));
    expect(write.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(write.headers['content-length']).toBe(String(write.text.length));
    expect(write.headers.etag).toBeUndefined();
  });

  test('a handler answers its status and JSON body, the params parsed by the route', async () => {
    const app = express();
    mountImplementations(app, ctx, [greetings]);
    const res = await request(app).get('/router-test/ana');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ greeting: 'hello ana' });
  });

  test('a route of the service\'s families that no implementation handles fails the mount, naming it', () => {
    expect(() => mountImplementations(express(), ctx, [greetings], { families: [family] })).toThrow(`routes with no handler: DELETE ${forgottenRoute.path}`);
  });

  test('a handler object with a handler the contract lacks, or without one it declares, fails at load', () => {
    const handlers = { greet: async () => ({ status: 201 as const, body: { greeting: 'hi' } }) };
    expect(() => implement(contract({ greet: greetRoute, forgotten: forgottenRoute }), handlers as never)).toThrow('no handler for route forgotten');
    expect(() => implement(contract({}), handlers as never)).toThrow('handlers for routes the contract does not declare: greet');
  });
});
