// A route is declared once, here in the contracts: method, path, who may call it, its request and
// response schemas. The declaration feeds the OpenAPI document (`registerRoutes`), the gateway's
// table (`gatewayRules`) and the service's router (`routeBinder` in @academy/service binds a
// handler to it: method and path, auth from `access`, params/query/body parsed with its schemas).
import type { z } from 'zod';
import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { ErrorBody, StatusErrorBody, SuccessErrorBody, type ErrorStyle } from './http/common.ts';

export const SERVICES = ['academic', 'hours-bank', 'incidents', 'notifications', 'payslips'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** `bearer`: JWT checked by the gateway and again by the service; `public`: no token; `api-key`: passed through, the service checks `x-api-key`. */
export type Access = 'bearer' | 'public' | 'api-key';
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The paths under one prefix, owned by one service, answering errors in one style: one rule of the gateway's table. */
export interface RouteFamily {
  /** Matches this path and everything below it (`/a` matches `/a`, `/a/`, `/a/b`, not `/ab`). */
  prefix: string;
  service: ServiceName;
  /** Its routes' access unless a route says otherwise. */
  access: Access;
  /** The 401 the service answers, so the gateway's refusals look the same. */
  errorStyle: ErrorStyle;
  unauthorizedMessage: string;
  /** OpenAPI tags of its routes. */
  tags: string[];
  /** Counted by the gateway against the stricter login limit. */
  login?: boolean;
  /** Held open by the service on purpose (Socket.IO long-polling waits up to its ping interval). */
  longPolling?: boolean;
  /** Largest body the gateway lets through on these paths, when larger than its BODY_LIMIT_BYTES (file uploads). */
  maxBodyBytes?: number;
}

export interface RouteRequest<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType> {
  params?: P;
  query?: Q;
  body?: B;
  /** `application/json` unless told (`multipart/form-data`). */
  bodyContentType?: string;
  /** `false`: the body may be left out (`body` then reads `{}`). */
  bodyRequired?: boolean;
  /** A body taken in several content types (JSON or multipart/form-data), one schema each: documented, and read by the handler itself (the binder parses `body` only). */
  bodies?: Record<string, z.ZodType>;
}

/** A route's answers by status, as zod-to-openapi takes them; `jsonContent(Schema, …)` keeps each body's schema in the type (the typed router reads it). */
export type RouteResponses = RouteConfig['responses'];

export interface RouteDeclaration<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends RouteResponses = RouteResponses,
  A extends Access = Access,
> {
  family: RouteFamily;
  method: HttpMethod;
  /** The whole path as clients see it through the gateway, parameters in OpenAPI's `{name}`. */
  path: string;
  summary: string;
  description?: string;
  /** The family's access unless told. */
  access: A;
  /** Only this role passes the service's check (after authentication). */
  role?: 'admin';
  /** The refusal of another role: its message, and 401 where the spec says so (403 otherwise). */
  roleRefusal?: { message?: string; status?: 401 | 403 };
  /** Counted by the gateway against the stricter login limit. */
  login?: boolean;
  request: RouteRequest<P, Q, B>;
  /** Every answer, as zod-to-openapi takes them (`jsonContent`, `errorResponses`); the 401 of a refused token or key is added from the family's style and message. */
  responses: R;
}

type RouteInit<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends RouteResponses, A extends Access> = Omit<RouteDeclaration<P, Q, B, R>, 'family' | 'access' | 'request'> & {
  access?: A;
  request?: RouteRequest<P, Q, B>;
};

/** Declares a family; `family.route({...})` declares each of its routes. */
export function routeFamily<FA extends Access>(family: RouteFamily & { access: FA }) {
  const routes: RouteDeclaration[] = [];
  return {
    ...family,
    /** Its routes, in the order declared. */
    routes: routes as readonly RouteDeclaration[],
    // `NoInfer`: a route declared inside `contract({...})` keeps its own access, not the contract's wider `Access`.
    route<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType, R extends RouteResponses = RouteResponses, A extends Access = FA>(
      init: RouteInit<P, Q, B, R, A>,
    ): RouteDeclaration<P, Q, B, R, NoInfer<A>> {
      if (init.path !== family.prefix && !init.path.startsWith(`${family.prefix}/`)) throw new Error(`${init.method.toUpperCase()} ${init.path} is outside its family ${family.prefix}`);
      const route = { ...init, family, access: (init.access ?? family.access) as A, request: init.request ?? {} } as RouteDeclaration<P, Q, B, R, A>;
      routes.push(route as unknown as RouteDeclaration);
      return route;
    },
  };
}

/** Routes by name: a service's (or a feature's) part of the contract, which its handler object implements key for key (`implement` in @academy/service). */
export type RouteContract = Record<string, RouteDeclaration>;

/** Names `routes` as a contract; a route named twice fails at load. */
export function contract<C extends RouteContract>(routes: C): C {
  const seen = new Set<RouteDeclaration>();
  for (const [name, route] of Object.entries(routes)) {
    if (seen.has(route)) throw new Error(`contract: ${name} names a route already named`);
    seen.add(route);
  }
  return routes;
}
export type DeclaredFamily = ReturnType<typeof routeFamily>;

/** A path's or a query's schema as zod-to-openapi takes it (an object, or an object piped through a transform). */
type RouteParameter = NonNullable<NonNullable<RouteConfig['request']>['params']>;

const ERROR_BODIES: Record<ErrorStyle, z.ZodType> = { default: ErrorBody, status: StatusErrorBody, success: SuccessErrorBody };
const content = (schema: z.ZodType, contentType = 'application/json') => ({ content: { [contentType]: { schema } } });
const SECURITY: Record<Access, RouteConfig['security']> = { bearer: [{ bearerAuth: [] }], 'api-key': [{ apiKey: [] }], public: undefined };

/** The error body of `family`'s style: for a route's error responses. */
export const errorBodyOf = (family: Pick<RouteFamily, 'errorStyle'>): z.ZodType => ERROR_BODIES[family.errorStyle];

/** The OpenAPI operation of a declared route (zod-to-openapi's `registerPath`). */
export function openApiRoute(route: RouteDeclaration): RouteConfig {
  const { params, query, body, bodyContentType, bodyRequired = true, bodies } = route.request;
  const responses: RouteConfig['responses'] = { ...route.responses };
  if (route.access !== 'public' && !responses[401]) {
    const refused = route.access === 'api-key' ? 'API key missing or wrong' : 'Token missing, invalid or expired';
    responses[401] = { description: `${refused} (\`${route.family.unauthorizedMessage}\`)`, ...content(errorBodyOf(route.family)) };
  }
  return {
    method: route.method,
    path: route.path,
    summary: route.summary,
    description: route.description,
    tags: route.family.tags,
    security: SECURITY[route.access],
    request: {
      ...(params ? { params: params as RouteParameter } : {}),
      ...(query ? { query: query as RouteParameter } : {}),
      ...(body ? { body: { required: bodyRequired, ...content(body, bodyContentType) } } : {}),
      ...(bodies ? { body: { required: bodyRequired, content: Object.fromEntries(Object.entries(bodies).map(([type, schema]) => [type, { schema }])) } } : {}),
    },
    responses,
  };
}

/** Registers every route of `families` in an OpenAPI registry. */
export function registerRoutes(registry: OpenAPIRegistry, families: readonly DeclaredFamily[]): void {
  for (const family of families) for (const route of family.routes) registry.registerPath(openApiRoute(route));
}

/** The gateway's rule for a family of paths (the first matching rule of the table wins). */
export interface RouteRule {
  prefix: string;
  service: ServiceName;
  access: Access;
  errorStyle: ErrorStyle;
  unauthorizedMessage: string;
  login?: boolean;
  longPolling?: boolean;
  maxBodyBytes?: number;
}

/**
 * The gateway's rules of a family: one for each of its routes whose access or login limit differ
 * from the family's (before it, so it matches first), then the family's own.
 */
export function gatewayRules(family: DeclaredFamily): RouteRule[] {
  const { prefix, service, access, errorStyle, unauthorizedMessage, login, longPolling, maxBodyBytes } = family;
  const base: RouteRule = { prefix, service, access, errorStyle, unauthorizedMessage, ...(login ? { login } : {}), ...(longPolling ? { longPolling } : {}), ...(maxBodyBytes ? { maxBodyBytes } : {}) };
  const exceptions = new Map<string, RouteRule>();
  for (const route of family.routes) {
    if (route.access === access && !route.login) continue;
    if (route.path.includes('{')) throw new Error(`${route.method.toUpperCase()} ${route.path}: a route with its own access must have a fixed path (the gateway matches prefixes)`);
    const rule: RouteRule = { ...base, prefix: route.path, access: route.access, ...(route.login ? { login: true } : {}) };
    const earlier = exceptions.get(route.path);
    if (earlier && (earlier.access !== rule.access || earlier.login !== rule.login)) throw new Error(`${route.path}: two methods with different access; the gateway matches paths`);
    exceptions.set(route.path, rule);
  }
  return [...exceptions.values(), base];
}
