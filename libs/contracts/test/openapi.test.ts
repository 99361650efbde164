import { describe, expect, test } from '@jest/globals';
import { buildOpenApiDocument, LoginBody, matchRoute, PushSendBody, TokenPair } from '../src/index.ts';

describe('buildOpenApiDocument', () => {
  const document = buildOpenApiDocument();
  const paths = document.paths ?? {};

  test('documents every route of the interface owned by auth, blocks, incidents, time records and notifications', () => {
    const expected: [string, string][] = [
      ['post', '/api/v2/auth/login'],
      ['post', '/api/v2/auth/refresh'],
      ['post', '/api/v2/auth/logout'],
      ['get', '/api/v2/auth/me'],
      ['get', '/api/v2/blocks/pending'],
      ['post', '/api/v2/blocks/student-block/{studentBlockId}/review'],
      ['post', '/api/v2/blocks/{blockId}/close'],
      ['get', '/api/v2/blocks/pending-rejected'],
      ['get', '/api/v2/blocks/completed'],
      ['get', '/api/v2/blocks/student-block/{studentBlockId}/thread'],
      ['post', '/api/v2/blocks/student-block/{studentBlockId}/thread'],
      ['get', '/api/v2/blocks/grades/{studentId}/{subjectId}'],
      ['get', '/api/v2/incident/'],
      ['get', '/api/v2/incident/my'],
      ['get', '/api/v2/incident/{id}'],
      ['get', '/api/v2/incident/{id}/threads'],
      ['post', '/api/v2/incident/{id}/thread'],
      ['post', '/api/v2/incident/{id}/admin-thread'],
      ['get', '/api/v2/timerecord/open'],
      ['post', '/api/v2/push-notifications/send'],
      ['post', '/api/v2/notifications/token'],
      ['delete', '/api/v2/notifications/token/{deviceId}'],
    ];
    for (const [method, path] of expected) {
      expect(paths[path]?.[method as 'get']).toBeDefined();
    }
  });

  test('the gateway has a rule for every documented path (a path without one would answer 404 at the edge)', () => {
    const withoutRule = Object.keys(paths).filter((path) => !matchRoute(path));
    expect(withoutRule).toEqual([]);
    expect(Object.keys(paths).length).toBeGreaterThan(0);
  });

  test('request and response bodies come from the zod schemas', () => {
    const login = paths['/api/v2/auth/login']!.post!;
    const body = (login.requestBody as { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }> }).content['application/json'].schema;
    expect(Object.keys(body.properties)).toEqual(['email', 'password']);
    expect(body.required).toEqual(['email', 'password']);
    expect(document.components?.securitySchemes).toHaveProperty('bearerAuth');
    expect(document.components?.securitySchemes).toHaveProperty('apiKey');
  });
});

describe('auth and push schemas', () => {
  test('login requires an e-mail and a password', () => {
    expect(LoginBody.safeParse({ email: 'a@b.test', password: 'x' }).success).toBe(true);
    expect(LoginBody.safeParse({ email: 'nope', password: '' }).success).toBe(false);
  });

  test('a token pair carries both tokens and their expiries', () => {
    expect(Object.keys(TokenPair.shape)).toEqual(expect.arrayContaining(['accessToken', 'refreshToken', 'expiresIn', 'expiresAt', 'refreshExpiresAt', 'user']));
  });

  test('push send needs userIds and a body, and knows the spec priorities', () => {
    expect(PushSendBody.safeParse({ userIds: [1, 2], body: 'hi', priority: 'high' }).success).toBe(true);
    expect(PushSendBody.safeParse({ userIds: [], body: 'hi' }).success).toBe(false);
    expect(PushSendBody.safeParse({ userIds: [1], body: 'hi', priority: 'urgent' }).success).toBe(false);
  });
});
