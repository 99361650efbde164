import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { z } from 'zod';
import type { RouteDeclaration } from '@academy/contracts';
import { dropTestDatabase, testConfig } from '@academy/testing';
import { routeBinder, startService, type BaseConfig, type RunningService } from '../src/index.ts';

// A public route that takes a JSON body, in a family whose errors say `success: false`.
const labelRoute = {
  family: { errorStyle: 'success', unauthorizedMessage: 'Unauthorized' },
  method: 'post',
  path: '/labels',
  summary: 'takes a label',
  access: 'public',
  request: { body: z.object({ label: z.string() }) },
  responses: {},
} as unknown as RouteDeclaration;

describe('routeBinder: a route that takes a JSON body', () => {
  let config: BaseConfig;
  let service: RunningService;
  const ran: unknown[] = [];

  beforeAll(async () => {
    config = await testConfig('service_routes');
    service = await startService(
      {
        name: 'svc-routes',
        entities: [],
        migrations: [],
        setup: (ctx) => ({
          routes: (app) =>
            routeBinder(app, ctx)(labelRoute, ({ body, res }) => {
              ran.push(body);
              res.json({ success: true, data: body });
            }),
        }),
      },
      config,
    );
  });
  beforeEach(() => {
    ran.length = 0;
  });
  afterAll(async () => {
    await service.stop();
    await dropTestDatabase(config.DATABASE_URL);
  });

  test('JSON sent as text/plain is 415 saying the body must be JSON, in the family\'s error body, and the handler does not run', async () => {
    const res = await request(service.url).post('/labels').set('content-type', 'text/plain').send('{"label":"x"}');
    expect([res.status, res.body.success, res.body.code, res.body.message]).toEqual([415, false, 'UNSUPPORTED_MEDIA_TYPE', 'The body must be JSON (Content-Type: application/json), not text/plain']);
    expect(ran).toEqual([]);
  });

  test('a form (application/x-www-form-urlencoded) on it is 415 too', async () => {
    const res = await request(service.url).post('/labels').type('form').send('label=x');
    expect([res.status, res.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    expect(ran).toEqual([]);
  });

  test.each([
    ['null', 'null'],
    ['"x"', 'string'],
    ['42', 'number'],
  ])('a body of %s is 400 saying the body must be a JSON object (not "not valid JSON")', async (body, what) => {
    const res = await request(service.url).post('/labels').set('content-type', 'application/json').send(body);
    expect([res.status, res.body.code, res.body.message]).toEqual([400, 'VALIDATION_ERROR', `Invalid request: the body must be a JSON object, not ${what}`]);
    expect(ran).toEqual([]);
  });

  test('malformed JSON is still called not valid JSON', async () => {
    const res = await request(service.url).post('/labels').set('content-type', 'application/json').send('{"label":');
    expect([res.status, res.body.code, res.body.message]).toEqual([400, 'MALFORMED_JSON', 'Request body is not valid JSON']);
  });

  test('JSON as application/json (with a charset) runs the handler; no body at all names the missing field', async () => {
    const ok = await request(service.url).post('/labels').set('content-type', 'application/json; charset=utf-8').send('{"label":"x"}');
    const empty = await request(service.url).post('/labels');
    expect([ok.status, ok.body.data, empty.status, empty.body.code]).toEqual([200, { label: 'x' }, 400, 'VALIDATION_ERROR']);
    expect(ran).toEqual([{ label: 'x' }]);
  });
});
