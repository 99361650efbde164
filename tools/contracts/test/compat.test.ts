// One test per breaking rule of issue 30: a breaking fixture that `contracts:check` refuses, naming
// the app, the route or event, the field and who depends on it, and a compatible one it lets pass.
import { describe, expect, test } from '@jest/globals';
import { z } from 'zod';
import type { AppName } from '@academy/contracts';
import { appBreaks, formatBreak, type Released } from '../compat.ts';
import type { AppContract, JsonSchema, RouteContract } from '../contracts.ts';

const schema = (type: z.ZodType, io: 'input' | 'output' = 'output') => {
  const { $schema: _s, ...rest } = z.toJSONSchema(type, { io, target: 'draft-07' }) as JsonSchema;
  return rest;
};
const ROUTE = 'POST /api/v2/blocks/{blockId}/close';
const route = (init: { body?: z.ZodType; params?: RouteContract['parameters']; responses?: Record<string, z.ZodType | null> }): RouteContract => ({
  parameters: init.params ?? [{ name: 'blockId', in: 'path', required: true, schema: { type: 'integer' } }],
  requestBody: init.body ? { required: true, content: { 'application/json': schema(init.body, 'input') } } : null,
  responses: Object.fromEntries(Object.entries(init.responses ?? { '200': z.object({ id: z.number() }) }).map(([status, body]) => [status, body ? { 'application/json': schema(body) } : {}])) as RouteContract['responses'],
});
const empty = (app: AppName): AppContract => ({ app, routes: {}, events: { publishes: {}, consumes: {} } });
const withRoute = (contract: RouteContract): AppContract => ({ ...empty('academic'), routes: { [ROUTE]: contract } });
const publishing = (app: AppName, type: string, data: z.ZodType, versions = [1]): AppContract => ({ ...empty(app), events: { publishes: { [type]: { versions, schema: schema(data, 'input') } }, consumes: {} } });
const consuming = (app: AppName, type: string, data: z.ZodType, versions = [1]): AppContract => ({
  ...empty(app),
  events: { publishes: {}, consumes: { [type]: { versions, schema: schema(data, 'input'), queue: `${app}.q` } } },
});

/** The break lines of `app` going from `before` to `after`, the other apps as released and unchanged. */
function check(app: AppName, before: AppContract, after: AppContract, others: Partial<Record<AppName, AppContract>> = {}, othersNow = others): string[] {
  const released: Partial<Record<AppName, Released>> = { [app]: { version: '1.0.0', contracts: before } };
  for (const [other, contract] of Object.entries(others)) released[other as AppName] = { version: '1.2.0', contracts: contract };
  const current = { ...Object.fromEntries(Object.entries(othersNow)), [app]: after } as Record<AppName, AppContract>;
  return appBreaks(app, after, released, current).map(formatBreak);
}

describe('HTTP: a request accepts at least what it accepted', () => {
  const body = z.object({ grade: z.number(), note: z.string().optional(), kind: z.enum(['exam', 'work']) });
  const before = withRoute(route({ body }));

  test('a route removed breaks; a route added does not', () => {
    expect(check('academic', before, empty('academic'))).toEqual([`academic: ${ROUTE}: route removed; depended on by the gateway and its clients (apps/console, the mobile app)`]);
    expect(check('academic', before, { ...before, routes: { ...before.routes, 'GET /api/v2/blocks/new': route({}) } })).toEqual([]);
  });

  test('a required request field added breaks; an optional one does not', () => {
    expect(check('academic', before, withRoute(route({ body: body.extend({ reason: z.string() }) })))).toEqual([expect.stringContaining(`academic: ${ROUTE} request body reason: required field added`)]);
    expect(check('academic', before, withRoute(route({ body: body.extend({ reason: z.string().optional() }) })))).toEqual([]);
  });

  test('an optional request field made required breaks', () => {
    expect(check('academic', before, withRoute(route({ body: body.extend({ note: z.string() }) })))).toEqual([expect.stringContaining('request body note: made required')]);
  });

  test('a required parameter added breaks; an optional one does not', () => {
    const params = (required: boolean) => [...route({}).parameters, { name: 'centerId', in: 'query', required, schema: { type: 'integer' } }];
    expect(check('academic', before, withRoute({ ...route({ body }), parameters: params(true) }))).toEqual([expect.stringContaining('query parameter centerId: required parameter added')]);
    expect(check('academic', before, withRoute({ ...route({ body }), parameters: params(false) }))).toEqual([]);
  });

  test("a request field's type narrowed breaks; widened does not", () => {
    const wide = withRoute(route({ body: body.extend({ grade: z.union([z.number(), z.string()]) }) }));
    expect(check('academic', wide, before)).toEqual([expect.stringContaining('request body grade: type narrowed: number, string → number (string no longer accepted)')]);
    expect(check('academic', before, wide)).toEqual([]);
  });

  test("a request field's enum narrowed breaks; widened does not", () => {
    expect(check('academic', before, withRoute(route({ body: body.extend({ kind: z.enum(['exam']) }) })))).toEqual([expect.stringContaining('request body kind: enum narrowed: "work" no longer accepted')]);
    expect(check('academic', before, withRoute(route({ body: body.extend({ kind: z.enum(['exam', 'work', 'oral']) }) })))).toEqual([]);
  });
});

describe('HTTP: a response gives at least what it gave', () => {
  const answer = z.object({ id: z.number(), name: z.string(), grade: z.number() });
  const before = withRoute(route({ responses: { '200': answer, '404': z.object({ code: z.string(), message: z.string() }) } }));
  const after = (ok: z.ZodType, notFound: z.ZodType = z.object({ code: z.string(), message: z.string() })) => withRoute(route({ responses: { '200': ok, '404': notFound } }));

  test('a response field removed breaks; one added does not', () => {
    expect(check('academic', before, after(answer.omit({ grade: true })))).toEqual([expect.stringContaining(`academic: ${ROUTE} response 200 grade: removed (or renamed); depended on by the gateway`)]);
    expect(check('academic', before, after(answer.extend({ extra: z.string() })))).toEqual([]);
  });

  test('a response field renamed breaks (the old name is gone)', () => {
    expect(check('academic', before, after(answer.omit({ name: true }).extend({ fullName: z.string() })))).toEqual([expect.stringContaining('response 200 name: removed (or renamed)')]);
  });

  test('a response field made nullable breaks; made non-null does not', () => {
    expect(check('academic', before, after(answer.extend({ grade: z.number().nullable() })))).toEqual([expect.stringContaining('response 200 grade: made nullable')]);
    const nullable = after(answer.extend({ grade: z.number().nullable() }));
    expect(check('academic', nullable, before)).toEqual([]);
  });

  test("a response field's type changed breaks", () => {
    expect(check('academic', before, after(answer.extend({ grade: z.string() })))).toEqual([expect.stringContaining('response 200 grade: type changed: number → string')]);
  });

  test("an error status's body changed incompatibly breaks; a new status does not", () => {
    expect(check('academic', before, after(answer, z.object({ error: z.string() })))).toEqual([
      expect.stringContaining('response 404 code: removed (or renamed)'),
      expect.stringContaining('response 404 message: removed (or renamed)'),
    ]);
    expect(check('academic', before, withRoute(route({ responses: { '200': answer, '404': z.object({ code: z.string(), message: z.string() }), '409': z.object({ code: z.string() }) } })))).toEqual([]);
  });

  test('a success status removed breaks', () => {
    expect(check('academic', before, withRoute(route({ responses: { '201': answer } })))).toEqual([expect.stringContaining('response 200: success status removed')]);
  });
});

describe('events', () => {
  const data = z.object({ blockId: z.number(), grade: z.number().nullable(), kind: z.enum(['exam', 'work']), note: z.string().optional() });
  const consumer = consuming('notifications', 'block.approved', data);

  test('a field removed breaks, naming the consumers; an optional field added does not', () => {
    expect(check('academic', publishing('academic', 'block.approved', data), publishing('academic', 'block.approved', data.omit({ grade: true })), { notifications: consumer })).toEqual([
      'academic: event block.approved data.grade: removed (or renamed); depended on by notifications@1.2.0',
    ]);
    expect(check('academic', publishing('academic', 'block.approved', data), publishing('academic', 'block.approved', data.extend({ extra: z.string().optional() })), { notifications: consumer })).toEqual([]);
  });

  test('a field made required breaks for the consumer, naming the publishers', () => {
    expect(check('notifications', consumer, consuming('notifications', 'block.approved', data.extend({ note: z.string() })), { academic: publishing('academic', 'block.approved', data) })).toEqual([
      'notifications: event block.approved data.note: made required; depended on by academic@1.2.0',
    ]);
  });

  test('a type or enum narrowed breaks; an enum widened breaks the readers of the old one; nothing changed passes', () => {
    const published = publishing('academic', 'block.approved', data);
    expect(check('academic', published, publishing('academic', 'block.approved', data.extend({ grade: z.number() })), { notifications: consumer })).toEqual([
      'academic: event block.approved data.grade: type narrowed: number, null → number (null no longer accepted); depended on by notifications@1.2.0',
    ]);
    expect(check('academic', published, publishing('academic', 'block.approved', data.extend({ kind: z.enum(['exam']) })), { notifications: consumer })).toEqual([
      expect.stringContaining('data.kind: enum narrowed: "work" no longer accepted'),
    ]);
    expect(check('academic', published, publishing('academic', 'block.approved', data.extend({ blockId: z.string() })), { notifications: consumer })).toEqual([
      expect.stringContaining('data.blockId: type changed: number → string'),
      expect.stringContaining('data.blockId: type narrowed'),
    ]);
    expect(check('academic', published, publishing('academic', 'block.approved', data.extend({ kind: z.enum(['exam', 'work', 'oral']) })), { notifications: consumer })).toEqual([
      expect.stringContaining('data.kind: enum widened: "oral" refused by readers of the old schema'),
    ]);
    expect(check('academic', published, published, { notifications: consumer })).toEqual([]);
  });

  test('a version still read by a released consumer, no longer published, breaks; a new version beside the old one passes', () => {
    const v1 = publishing('academic', 'block.approved', data, [1]);
    expect(check('academic', v1, publishing('academic', 'block.approved', data, [2]), { notifications: consumer })).toEqual([
      expect.stringContaining('academic: event block.approved: version 2 published without version 1 (publish both for at least one release); depended on by notifications@1.2.0'),
      expect.stringContaining('academic: event block.approved: version 1, read by notifications@1.2.0, no longer published (now: 2)'),
    ]);
    expect(check('academic', v1, publishing('academic', 'block.approved', data, [1, 2]), { notifications: consumer })).toEqual([]);
  });

  test('a consumer that reads only a version its released publisher does not stamp breaks; one that reads both passes', () => {
    const publisher = { academic: publishing('academic', 'block.approved', data, [1]) };
    expect(check('notifications', consumer, consuming('notifications', 'block.approved', data, [2]), publisher)).toEqual([
      'notifications: event block.approved: reads version 2 only, academic@1.2.0 publishes 1; depended on by academic@1.2.0',
    ]);
    expect(check('notifications', consumer, consuming('notifications', 'block.approved', data, [1, 2]), publisher)).toEqual([]);
  });
});
