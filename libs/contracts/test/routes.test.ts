import { describe, expect, test } from '@jest/globals';
import { z } from 'zod';
import { gatewayRules, openApiRoute, routeFamily } from '../src/routes.ts';
import { ROUTES, matchRoute } from '../src/route-table.ts';

const family = () => routeFamily({ prefix: '/api/v2/things', service: 'academic', access: 'bearer', errorStyle: 'success', unauthorizedMessage: 'Who are you?', tags: ['Things'] });

describe('route declarations', () => {
  test('a route whose access differs from its family gets its own gateway rule, matched before the family', () => {
    const things = family();
    things.route({ method: 'post', path: '/api/v2/things/login', summary: 'Log in', access: 'public', login: true, responses: {} });
    things.route({ method: 'get', path: '/api/v2/things/{id}', summary: 'Read', responses: {} });
    const rules = gatewayRules(things);
    expect(rules.map((rule) => [rule.prefix, rule.access, rule.login ?? false])).toEqual([
      ['/api/v2/things/login', 'public', true],
      ['/api/v2/things', 'bearer', false],
    ]);
    expect(matchRoute('/api/v2/things/login', rules)?.access).toBe('public');
    expect(matchRoute('/api/v2/things/7', rules)?.access).toBe('bearer');
  });

  test('a prefix matches the path itself and whole segments under it, never a longer segment', () => {
    const rules = gatewayRules(family());
    expect(matchRoute('/api/v2/things', rules)?.prefix).toBe('/api/v2/things');
    expect(matchRoute('/api/v2/things/7/x', rules)?.prefix).toBe('/api/v2/things');
    expect(matchRoute('/api/v2/thingsx', rules)).toBeUndefined();
    expect(matchRoute('/api/v2/thing', rules)).toBeUndefined();
    expect(matchRoute('/api/v2/things-7', rules)).toBeUndefined();
  });

  test('a route with its own access under a path parameter is refused (the gateway matches prefixes)', () => {
    const things = family();
    things.route({ method: 'post', path: '/api/v2/things/{id}/open', summary: 'Open', access: 'public', responses: {} });
    expect(() => gatewayRules(things)).toThrow('must have a fixed path');
  });

  test('a route outside its family is refused at declaration', () => {
    expect(() => family().route({ method: 'get', path: '/api/v2/thingsx', summary: 'No', responses: {} })).toThrow('outside its family');
  });

  test("the OpenAPI operation carries the family's tags, the security of its access and the 401 in the family's style and message", () => {
    const route = family().route({ method: 'put', path: '/api/v2/things/{id}', summary: 'Change', request: { params: z.object({ id: z.string() }), body: z.object({ name: z.string() }) }, responses: {} });
    const operation = openApiRoute(route);
    expect(operation).toMatchObject({ method: 'put', tags: ['Things'], security: [{ bearerAuth: [] }], request: { body: { required: true } } });
    expect(operation.responses[401]).toMatchObject({ description: 'Token missing, invalid or expired (`Who are you?`)' });
  });

  test('the gateway table keeps the public auth routes, the api-key push route and the login limit', () => {
    expect(matchRoute('/api/v2/auth/login')).toMatchObject({ service: 'academic', access: 'public', login: true });
    expect(matchRoute('/api/v2/push-notifications/send')).toMatchObject({ service: 'notifications', access: 'api-key', errorStyle: 'success' });
    expect(matchRoute('/api/v2/hours-bank/7/completed')).toMatchObject({ service: 'hours-bank', access: 'bearer', unauthorizedMessage: 'Unauthorized' });
    expect(ROUTES.filter((rule) => rule.login).map((rule) => rule.prefix)).toEqual(['/api/v2/auth/login']);
  });
});
