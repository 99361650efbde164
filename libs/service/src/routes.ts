import type { Express, Request, RequestHandler, Response, Router } from 'express';
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
    (target as Router)[route.method](expressPath(route.path), ...chain);
    if (bindOptions.paramLeftOut && bindOptions.invalidParams) {
      const leftOut = /^(.*)\/\{(\w+)\}$/.exec(route.path);
      if (!leftOut) throw new Error(`${route.method.toUpperCase()} ${route.path}: paramLeftOut needs a path ending in a parameter`);
      const invalid = bindOptions.invalidParams;
      (target as Router)[route.method](expressPath(leftOut[1]!), ...chain.slice(0, -1 - (bindOptions.guards?.length ?? 0)), () => {
        throw invalid([`${leftOut[2]}: required`]);
      });
    }
  };
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
