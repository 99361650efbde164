// Each app's contracts, as data: the HTTP routes it serves (its slice of the OpenAPI document, every
// $ref resolved so a snapshot stands alone) and the events it publishes and consumes (type,
// versions, JSON Schema of `data` from the zod schemas). What a release snapshots
// (`contracts/released/<app>/<version>.json`) and what `contracts:check` compares.
import {
  APPS,
  APP_EVENTS,
  ROUTE_FAMILIES,
  buildOpenApiDocument,
  consumedVersions,
  eventDataSchema,
  eventParties,
  publishedVersions,
  type AppName,
  type EventType,
} from '@academy/contracts';

export type JsonSchema = Record<string, unknown>;

export interface RouteContract {
  parameters: { name: string; in: string; required: boolean; schema: JsonSchema }[];
  requestBody: { required: boolean; content: Record<string, JsonSchema> } | null;
  /** Status code → media type → schema (a status without a body: `{}`). */
  responses: Record<string, Record<string, JsonSchema>>;
}

export interface EventContract {
  versions: number[];
  schema: JsonSchema;
}

export interface AppContract {
  app: AppName;
  /** `METHOD /path` (OpenAPI's `{param}`) → its contract. */
  routes: Record<string, RouteContract>;
  events: {
    publishes: Record<string, EventContract>;
    consumes: Record<string, EventContract & { queue: string }>;
  };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** The service that serves each route its families declare (`METHOD /path`). */
function routeOwners(): Map<string, AppName> {
  const owners = new Map<string, AppName>();
  for (const family of ROUTE_FAMILIES) for (const route of family.routes) owners.set(`${route.method.toUpperCase()} ${route.path}`, family.service);
  return owners;
}

/** Replaces every `$ref` into the document's components by its target (a cycle keeps its `$ref`). */
function resolveRefs(value: unknown, document: Record<string, unknown>, seen: string[] = []): unknown {
  if (Array.isArray(value)) return value.map((item) => resolveRefs(item, document, seen));
  if (!value || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  if (typeof object.$ref === 'string' && object.$ref.startsWith('#/')) {
    if (seen.includes(object.$ref)) return { $ref: object.$ref };
    const target = object.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], document);
    const { $ref: _ref, ...rest } = object;
    return resolveRefs({ ...(target as object), ...rest }, document, [...seen, object.$ref]);
  }
  return Object.fromEntries(Object.entries(object).map(([key, item]) => [key, resolveRefs(item, document, seen)]));
}

function routeContract(operation: Record<string, unknown>): RouteContract {
  const parameters = ((operation.parameters as Record<string, unknown>[] | undefined) ?? []).map((parameter) => ({
    name: String(parameter.name),
    in: String(parameter.in),
    required: parameter.required === true,
    schema: (parameter.schema as JsonSchema | undefined) ?? {},
  }));
  const body = operation.requestBody as { required?: boolean; content?: Record<string, { schema?: JsonSchema }> } | undefined;
  const requestBody = body ? { required: body.required === true, content: Object.fromEntries(Object.entries(body.content ?? {}).map(([type, media]) => [type, media.schema ?? {}])) } : null;
  const responses = Object.fromEntries(
    Object.entries((operation.responses as Record<string, { content?: Record<string, { schema?: JsonSchema }> }> | undefined) ?? {}).map(([status, response]) => [
      status,
      Object.fromEntries(Object.entries(response.content ?? {}).map(([type, media]) => [type, media.schema ?? {}])),
    ]),
  );
  return { parameters, requestBody, responses };
}

/** The contracts of every app as the working tree declares them. */
export function currentContracts(): Record<AppName, AppContract> {
  const document = buildOpenApiDocument() as unknown as Record<string, unknown>;
  const owners = routeOwners();
  const contracts = Object.fromEntries(APPS.map((app) => [app, { app, routes: {}, events: { publishes: {}, consumes: {} } } as AppContract])) as Record<AppName, AppContract>;
  // The gateway's own: the two documents its clients and tools read.
  for (const path of ['/api/docs/openapi.json', '/api/docs/asyncapi.json']) contracts.gateway.routes[`GET ${path}`] = { parameters: [], requestBody: null, responses: { '200': { 'application/json': {} } } };
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Record<string, unknown>>)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const key = `${method.toUpperCase()} ${path}`;
      // A documented path no service's family declares is the gateway's own (its docs, the console's session).
      const owner = owners.get(key) ?? 'gateway';
      contracts[owner].routes[key] = routeContract(resolveRefs(operation, document) as Record<string, unknown>);
    }
  }
  for (const app of APPS) {
    const events = APP_EVENTS[app];
    for (const type of events.publishes) contracts[app].events.publishes[type] = { versions: publishedVersions(app, type), schema: eventDataSchema(type) };
    for (const { queue, types } of events.consumes) {
      for (const type of types) contracts[app].events.consumes[type] = { versions: consumedVersions(type), schema: eventDataSchema(type), queue };
    }
  }
  return contracts;
}

/** Who relies on an app's route: the gateway routes it, the clients call it. */
export const ROUTE_DEPENDENTS = 'the gateway and its clients (apps/console, the mobile app)';

/** The other apps on the far side of an event: its consumers when `app` publishes it, its publishers when `app` consumes it. */
export function eventDependents(app: AppName, type: EventType, side: 'publishes' | 'consumes'): AppName[] {
  const parties = eventParties(type);
  return (side === 'publishes' ? parties.consumers : parties.publishers).filter((other) => other !== app);
}
