import { describe, expect, test } from '@jest/globals';
import { buildOpenApiDocument, CONSOLE_SESSION_PATH, LoginBody, matchRoute, PushSendBody, TokenPair } from '../src/index.ts';

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

  test('the gateway has a rule for every documented path (a path without one would answer 404 at the edge), except the console session it serves itself', () => {
    const withoutRule = Object.keys(paths).filter((path) => !matchRoute(path));
    expect(withoutRule).toEqual([CONSOLE_SESSION_PATH, `${CONSOLE_SESSION_PATH}/refresh`]);
    expect(Object.keys(paths).length).toBeGreaterThan(0);
  });

  test('every write operation (post, put, patch, delete) lists the Idempotency-Key header, a component, and its 409 and 422; the console session\'s none', () => {
    const session = Object.entries(paths).filter(([path]) => path.startsWith(CONSOLE_SESSION_PATH));
    expect(session.flatMap(([, item]) => Object.values(item ?? {}).flatMap((operation) => (operation as { parameters?: unknown[] }).parameters ?? []))).not.toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    const writes = Object.entries(paths).filter(([path]) => !path.startsWith(CONSOLE_SESSION_PATH)).flatMap(([path, item]) =>
      (['post', 'put', 'patch', 'delete'] as const).filter((method) => item?.[method]).map((method) => ({ name: `${method} ${path}`, operation: item![method]! })),
    );
    expect(writes.length).toBeGreaterThan(20);
    const missing = writes.filter(({ operation }) => !(operation.parameters ?? []).some((parameter) => '$ref' in parameter && parameter.$ref === '#/components/parameters/IdempotencyKey'));
    expect(missing.map(({ name }) => name)).toEqual([]);
    for (const { name, operation } of writes) {
      const conflict = operation.responses?.['409'];
      const reused = operation.responses?.['422'];
      expect([name, conflict && ('$ref' in conflict ? conflict.$ref : conflict.description)]).toEqual([name, expect.stringMatching(/IdempotencyKeyInUse|IDEMPOTENCY_KEY_IN_USE/)]);
      expect([name, reused && ('$ref' in reused ? reused.$ref : reused.description)]).toEqual([name, expect.stringMatching(/IdempotencyKeyReused|IDEMPOTENCY_KEY_REUSED/)]);
    }
    const header = document.components?.parameters?.IdempotencyKey;
    expect(header).toMatchObject({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 } });
    expect(document.components?.responses?.IdempotencyKeyInUse).toMatchObject({ headers: { 'Retry-After': expect.any(Object) } });
    expect(document.components?.schemas).toHaveProperty('Error');
  });

  test('reads do not list the Idempotency-Key header', () => {
    const keyedReads = Object.entries(paths).filter(([, item]) => (item?.get?.parameters ?? []).some((parameter) => '$ref' in parameter && parameter.$ref.endsWith('/IdempotencyKey')));
    expect(keyedReads).toEqual([]);
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

describe('nullable references in the OpenAPI document', () => {
  const document = buildOpenApiDocument();
  type Node = Record<string, unknown>;
  const isRef = (node: unknown): node is { $ref: string } => typeof (node as Node | null)?.$ref === 'string';
  const allowsNull = (node: unknown) => {
    const type = (node as Node | null)?.type;
    return type === 'null' || (Array.isArray(type) && type.includes('null')) || (node as Node | null)?.nullable === true;
  };
  /** Every schema object in the document, with where it is. */
  const schemas = (node: unknown, at: string, found: [string, Node][] = []): [string, Node][] => {
    if (Array.isArray(node)) node.forEach((item, i) => schemas(item, `${at}/${i}`, found));
    else if (node && typeof node === 'object') {
      found.push([at, node as Node]);
      for (const [key, value] of Object.entries(node)) schemas(value, `${at}/${key}`, found);
    }
    return found;
  };
  const all = schemas(document, '');

  test('no $ref is combined by allOf with a nullable schema (allOf demands the referenced object too, so no null satisfies it)', () => {
    const broken = all.filter(([, node]) => Array.isArray(node.allOf) && node.allOf.some(isRef) && node.allOf.some(allowsNull)).map(([at]) => at);
    expect(broken).toEqual([]);
  });

  test('every nullable $ref is a choice between the reference and null, and the open record is one of them', () => {
    const nullableRefs = all.filter(([, node]) => {
      const options = (node.oneOf ?? node.anyOf) as unknown[] | undefined;
      return Array.isArray(options) && options.some(isRef) && options.some(allowsNull);
    });
    for (const [at, node] of nullableRefs) {
      const options = (node.oneOf ?? node.anyOf) as unknown[];
      expect([at, options.length, options.filter(isRef).length]).toEqual([at, 2, 1]);
      expect([at, options.find((option) => !isRef(option))]).toEqual([at, { type: 'null' }]);
    }
    expect(document.components?.schemas?.OpenRecord).toMatchObject({
      properties: { record: { anyOf: [{ $ref: '#/components/schemas/TimeRecord' }, { type: 'null' }] } },
      required: ['hasOpenRecord', 'record'],
    });
  });

  test('the document is OpenAPI 3.1, where null is a type (not 3.0 `nullable`)', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(all.filter(([, node]) => 'nullable' in node).map(([at]) => at)).toEqual([]);
  });
});
