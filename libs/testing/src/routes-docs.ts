// Routes, docs and gateway rules are declared apart (the service mounts its routes, the contracts
// document them and hold the gateway's table); these functions tell where the three disagree. A
// separate entry point (`@academy/testing/routes-docs`) because it imports Jest.
import { expect } from '@jest/globals';
import type { Express } from 'express';
import { buildOpenApiDocument, matchRoute, type OpenApiDocument, type ServiceName } from '@academy/contracts';
import { OPERATIONAL_PATHS } from '@academy/kit';

/** `METHOD /path/{param}`: a route as OpenAPI writes it (Express's `:param` becomes `{param}`). */
export type RouteKey = `${string} /${string}`;

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

interface RouterLayer {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: RouterLayer[] };
}

/** Express's path syntax to OpenAPI's: `:id` → `{id}`, no doubled or trailing slash. */
export function openApiPath(expressPath: string): string {
  const path = expressPath.replace(/:(\w+)/g, '{$1}').replace(/\/{2,}/g, '/');
  return path.length > 1 ? path.replace(/\/$/, '') : path;
}

const pathsOf = (raw: unknown): string[] => (Array.isArray(raw) ? raw.flat(Infinity).filter((p): p is string => typeof p === 'string') : typeof raw === 'string' ? [raw] : []);

/**
 * Every route the app mounts, walking Express 5's router stack (routers mounted with `use` are
 * followed under their mount path). `router.all(...)` shows as `ALL`. Kit's operational routes
 * (`/healthz`, `/readyz`, `/metrics`) are left out: they are not behind the gateway.
 */
export function mountedRoutes(app: Express): RouteKey[] {
  const found = new Set<RouteKey>();
  const walk = (stack: RouterLayer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const methods = Object.keys(layer.route.methods).map((method) => (method === '_all' ? 'ALL' : method.toUpperCase()));
        for (const path of pathsOf(layer.route.path)) for (const method of methods) found.add(`${method} ${openApiPath(`${prefix}/${path}`)}` as RouteKey);
      } else if (Array.isArray(layer.handle?.stack)) {
        for (const mount of pathsOf(layer.rawPath)) walk(layer.handle.stack, `${prefix}/${mount}`);
      }
    }
  };
  walk((app as unknown as { router: { stack: RouterLayer[] } }).router.stack, '');
  return [...found].filter((key) => !OPERATIONAL_PATHS.includes(key.slice(key.indexOf(' ') + 1))).sort();
}

let document: OpenApiDocument | undefined;

/** The routes the OpenAPI document lists whose gateway rule sends them to `service`. */
export function documentedRoutes(service: ServiceName): RouteKey[] {
  const found: RouteKey[] = [];
  document ??= buildOpenApiDocument();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (matchRoute(path)?.service !== service) continue;
    for (const method of HTTP_METHODS) if (item?.[method]) found.push(`${method.toUpperCase()} ${openApiPath(path)}` as RouteKey);
  }
  return found.sort();
}

export interface RouteDocsDrift {
  /** Mounted by the service, absent from the OpenAPI document. */
  mountedButNotDocumented: RouteKey[];
  /** In the OpenAPI document (under a gateway rule of this service), not mounted: a 404 for clients. */
  documentedButNotMounted: RouteKey[];
  /** Mounted, but the gateway has no rule for the path, or sends it to another service. */
  mountedWithoutGatewayRule: RouteKey[];
  /** Declared as a missing-parameter answer, but not mounted, or not a documented path with one `{param}` segment left out. */
  wrongMissingParameterRoutes: RouteKey[];
}

export interface RouteDocsOptions {
  /**
   * Routes mounted only to give a documented route's 400 when one of its path parameters is left
   * out (`GET /api/v2/hours-bank` → "Employee ID is required", `POST …/student-block/review` →
   * STUDENT_BLOCK_ID_REQUIRED); they are not routes of their own, so the document does not list
   * them. Each must be mounted, and its path must be a documented path with one `{param}` segment
   * left out. `ALL` stands for a catch-all of any method.
   */
  missingParameterRoutes?: RouteKey[];
}

/**
 * Where `app` (the service's Express app), the OpenAPI document and the gateway's route table
 * disagree.
 */
export function routeDocsDrift(app: Express, service: ServiceName, options: RouteDocsOptions = {}): RouteDocsDrift {
  const mounted = mountedRoutes(app);
  const documented = documentedRoutes(service);
  const missingParameter = new Set(options.missingParameterRoutes ?? []);
  const pathOf = (key: RouteKey) => key.slice(key.indexOf(' ') + 1);
  const documentedPaths = documented.map(pathOf);
  const withOneParameterLeftOut = new Set(
    documentedPaths.flatMap((path) => {
      const segments = path.split('/');
      return segments.flatMap((segment, i) => (segment.startsWith('{') ? [openApiPath(segments.filter((_, j) => j !== i).join('/') || '/')] : []));
    }),
  );
  return {
    mountedButNotDocumented: mounted.filter((key) => !documented.includes(key) && !missingParameter.has(key)),
    documentedButNotMounted: documented.filter((key) => !mounted.includes(key)),
    mountedWithoutGatewayRule: mounted.filter((key) => matchRoute(pathOf(key))?.service !== service),
    wrongMissingParameterRoutes: [...missingParameter].filter((key) => !mounted.includes(key) || !withOneParameterLeftOut.has(pathOf(key))).sort(),
  };
}

export const NO_ROUTE_DOCS_DRIFT: RouteDocsDrift = { mountedButNotDocumented: [], documentedButNotMounted: [], mountedWithoutGatewayRule: [], wrongMissingParameterRoutes: [] };

/**
 * Fails, listing each disagreement, unless every route `app` mounts is documented, every route the
 * document gives to `service` is mounted, and the gateway sends every mounted path to `service`.
 */
export function expectRoutesMatchDocs(app: Express, service: ServiceName, options: RouteDocsOptions = {}): void {
  expect(routeDocsDrift(app, service, options)).toEqual(NO_ROUTE_DOCS_DRIFT);
}

const UNKNOWN_QUERY_KEY = 'unknownQueryKey';

/**
 * Sends each route `app` mounts (path parameters set to 1, no body) to the running service at
 * `baseUrl` with a query parameter no route reads, and lists the routes that do not answer 400
 * with a message naming it: one way to treat input, so no route silently ignores a parameter.
 * `headers` should pass every route's authentication (an admin token with an employee, an API
 * key), so the answer is the query's; `except` names routes left out (the missing-parameter ones).
 */
export async function routesIgnoringUnknownQuery(app: Express, baseUrl: string, headers: Record<string, string>, except: RouteKey[] = []): Promise<string[]> {
  const ignoring: string[] = [];
  for (const key of mountedRoutes(app)) {
    if (except.includes(key) || key.startsWith('ALL ')) continue;
    const [method, path] = key.split(' ') as [string, string];
    const response = await fetch(`${baseUrl}${path.replace(/\{\w+\}/g, '1')}?${UNKNOWN_QUERY_KEY}=1`, { method, headers });
    const text = await response.text();
    if (response.status !== 400 || !text.includes(UNKNOWN_QUERY_KEY)) ignoring.push(`${key} → ${response.status} ${text.slice(0, 200)}`);
  }
  return ignoring;
}
