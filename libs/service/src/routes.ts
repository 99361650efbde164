import express, { type Express, type Request, type RequestHandler, type Response, type Router } from 'express';
import type { z } from 'zod';
import { requireApiKey, requireAuth, requireRole, type TokenVerifier } from '@academy/auth';
import { NoQuery, matchRoute, type RouteDeclaration } from '@academy/contracts';
import { AppError, errorStyle } from '@academy/kit';
import { declareKeyInStatement, declareStreamedBody } from './idempotency.ts';

/** What a handler gets: the request's params, query and body parsed with the route's schemas. */
export interface RouteCall<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  req: Request;
  res: Response;
}

export interface BindOptions {
  /** Checks after authentication and the role, before parsing (whose record is it…). */
  guards?: RequestHandler[];
  /** The error of a path parameter that fails its schema, where the spec names one (`Employee ID is required`). */
  invalidParams?: (details: string[]) => Error;
  /** Also answers the path with its last parameter left out (`/hours-bank` for `/hours-bank/{employeeId}`): `invalidParams`' error, after the same authentication and role. */
  paramLeftOut?: boolean;
  /** Runs on the raw body before its schema, where the spec fixes which error comes first (`Time is required`). */
  checkBody?: (body: unknown) => void;
  /**
   * The handler's store records the `Idempotency-Key` in its own statement, written by hand (one round
   * trip): a keyed request opens no transaction, and the handler passes `statementKeyOf(req)` to its
   * use case (`idempotency.ts`). Its code before that statement runs again on a replay.
   */
  keyInStatement?: boolean;
}

/**
 * Sets a request's error body style from its route family before the body parser runs, so a
 * malformed body is answered in the family's body too (`{ success: false, … }` on notifications).
 */
export const familyErrorStyle: RequestHandler = (req, res, next) => {
  const rule = matchRoute(req.path);
  if (rule) res.locals.errorStyle = rule.errorStyle;
  next();
};

/** Express's path syntax from OpenAPI's: `{id}` → `:id`. */
export const expressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * Binds handlers to declared routes on `target`: mounts the route's method and path, its error
 * style, authentication by its `access` (the family's 401 message), its role, then parses params,
 * query (none allowed when it declares none) and a JSON body with its schemas before the handler
 * (a multipart body is left to the handler, which streams it).
 */
export function routeBinder(target: Express | Router, ctx: { verifier: TokenVerifier }, options: { apiKey?: string } = {}) {
  return function bind<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
    route: RouteDeclaration<P, Q, B>,
    ...rest: [handler: (call: RouteCall<P, Q, B>) => unknown] | [bindOptions: BindOptions, handler: (call: RouteCall<P, Q, B>) => unknown]
  ): void {
    const [bindOptions, handler] = rest.length === 1 ? [{}, rest[0]] : rest;
    const { family, access, role, roleRefusal, request } = route;
    const chain: RequestHandler[] = [];
    if (family.errorStyle !== 'default') chain.push(errorStyle(family.errorStyle));
    if (access === 'bearer') chain.push(requireAuth(ctx.verifier, { message: family.unauthorizedMessage }));
    if (access === 'api-key') chain.push(requireApiKey(options.apiKey ?? '', { message: family.unauthorizedMessage }));
    if (role) chain.push(requireRole(role, roleRefusal ?? {}));
    chain.push(...(bindOptions.guards ?? []));
    chain.push(async (req, res) => {
      const params = parseParams(request.params, req.params, bindOptions.invalidParams);
      const query = (request.query ?? NoQuery).parse(req.query);
      // A body the JSON parser skipped (text/plain, a form…) on a route that takes JSON would read as missing fields.
      if (request.body && isJson(request.bodyContentType) && hasBody(req) && !req.is('application/json')) throw notJson(req.headers['content-type']);
      bindOptions.checkBody?.(req.body);
      // A JSON body is parsed here (none sent reads as `{}`, so each missing field is named); any other (multipart) is the handler's to stream.
      const body = request.body && isJson(request.bodyContentType) ? request.body.parse(req.body ?? {}) : undefined;
      await handler({ params, query, body, req, res } as RouteCall<P, Q, B>);
    });
    if (bindOptions.keyInStatement) declareKeyInStatement(target, route.method, expressPath(route.path));
    if (request.bodyContentType === 'multipart/form-data' || request.bodies?.['multipart/form-data']) declareStreamedBody(target, route.method, expressPath(route.path));
    familyLayers(target, family.prefix, route.method, expressPath(route.path))[route.method](expressPath(route.path), ...chain);
    if (bindOptions.paramLeftOut && bindOptions.invalidParams) {
      const leftOut = /^(.*)\/\{(\w+)\}$/.exec(route.path);
      if (!leftOut) throw new Error(`${route.method.toUpperCase()} ${route.path}: paramLeftOut needs a path ending in a parameter`);
      const invalid = bindOptions.invalidParams;
      familyLayers(target, family.prefix, route.method, expressPath(leftOut[1]!))[route.method](expressPath(leftOut[1]!), ...chain.slice(0, -1 - (bindOptions.guards?.length ?? 0)), () => {
        throw invalid([`${leftOut[2]}: required`]);
      });
    }
  };
}

/** A router of consecutive routes of one family, mounted on its parent behind one test of the family's prefix. */
interface FamilyGroup {
  prefix: string;
  /** The parent's layer of the group: routes join the group only while it is the parent's last layer. */
  layer: unknown;
  router: Router;
}

type RouterLike = Router & { stack: unknown[]; caseSensitive?: boolean; strict?: boolean };

/** The group each parent router is filling, by the parent's router. */
const openGroups = new WeakMap<object, FamilyGroup>();

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Where a route's layer goes (issue 32): Express walks an app's layers one by one, testing each route's
 * pattern against the path, so a request to academic's blocks walked some sixty route layers of the
 * families mounted before them. Consecutive routes of one family go into a router of their own, mounted
 * as one layer that passes the request to it only when the path is the family's prefix or under it
 * (case-insensitive unless the app routes case-sensitively, as the routes match). The routes keep their
 * full paths and their order, and a request walks a layer a family before its own, then its family's
 * routes as before. It is the same routing: a route whose path starts with its family's prefix matches
 * no path outside it (its pattern begins with that literal text), and a path outside it went past all
 * of the family's routes before too. So the router is the same otherwise: `req.url`, `req.path`,
 * `req.baseUrl` and `req.route` are as they were, an error goes on to the app's error handler, a path
 * none of them answers goes on to the layers after them. What differs: an OPTIONS request skips the
 * group (no route declares OPTIONS, and the app's 404 answered it before: a nested router would answer
 * its own `Allow`), and a handler's `next('router')` leaves the group, not the app's router (none calls it).
 * A route outside its family's prefix, an OPTIONS route, or one mounted after another layer (`app.use`)
 * was added to the parent goes where it went before, or starts a new group.
 */
function familyLayers(target: Express | Router, prefix: string | undefined, method: string, path: string): Router {
  const parent = ((target as Express).router ?? target) as RouterLike;
  const sensitive = parent.caseSensitive === true;
  const folded = (text: string) => (sensitive ? text : text.toLowerCase());
  const within = prefix !== undefined && prefix.length > 1 && (folded(path) === folded(prefix) || folded(path).startsWith(`${folded(prefix)}/`));
  if (!within || method === 'options') return target as Router;
  const open = openGroups.get(parent);
  if (open && open.prefix === prefix && parent.stack.at(-1) === open.layer) return open.router;
  const router = express.Router({ caseSensitive: sensitive, strict: parent.strict === true });
  const pattern = new RegExp(`^${escapeRegExp(prefix)}(?:/|$)`, sensitive ? '' : 'i');
  // `stack`: the group's routes, where a walk of the app's layers finds them (`mountedRoutes` of @academy/testing).
  const group: RequestHandler & { stack?: unknown[] } = (req, res, next) => (req.method !== 'OPTIONS' && pattern.test(req.path) ? router(req, res, next) : next());
  group.stack = (router as RouterLike).stack;
  target.use(group);
  openGroups.set(parent, { prefix, layer: parent.stack.at(-1), router });
  return router;
}

const isJson = (contentType: string | undefined) => contentType === undefined || contentType === 'application/json';

/** Whether a request carries a body (RFC 9112 §6.3: a length above zero, or a transfer coding). */
const hasBody = (req: Request) => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

const notJson = (contentType: string | undefined) =>
  new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', `The body must be JSON (Content-Type: application/json)${contentType ? `, not ${contentType.split(';')[0]!.trim()}` : ''}`);

function parseParams(schema: z.ZodType | undefined, raw: unknown, invalid?: (details: string[]) => Error): unknown {
  if (!schema) return {};
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  if (invalid) throw invalid(parsed.error.issues.map((issue) => issue.message));
  throw parsed.error;
}
