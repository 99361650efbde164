import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Express, Request, Response, Router } from 'express';
import type { z } from 'zod';
import { actorOf, type Actor, type TokenVerifier } from '@academy/auth';
import type { DeclaredFamily, RouteContract, RouteDeclaration, RouteResponses } from '@academy/contracts';
import { sendJson, type Logger } from '@academy/kit';
import { routeBinder, type BindOptions } from './routes.ts';

// A service implements its contract (routes by name, declared in @academy/contracts) as one handler
// object keyed by route name, as ts-rest's router does: the compiler refuses a missing or an extra
// handler, and an answer whose status or body the route does not declare. A handler gets the
// request's input parsed by the route's schemas, the service's context and the caller; it answers
// `{ status, body }` and the router sends it (JSON, or a stream or bytes for a file).

/** The statuses a route declares by name (`200`, `201`), without the index signature of `errorResponses`' spread. */
type DeclaredStatus<R> = keyof { [K in keyof R as string extends K ? never : number extends K ? never : K]: R[K] };

/** Headers of an answer (a file's content type and name). */
type AnswerHeaders = Record<string, string>;

/** One answer per declared status: a JSON body of its schema, a file (stream or bytes) for another content type, none without content. */
type AnswerFor<R, K extends keyof R> = R[K] extends { content: { 'application/json': { schema: infer S extends z.ZodType } } }
  ? { status: K; body: z.input<S>; headers?: AnswerHeaders }
  : R[K] extends { content: object }
    ? { status: K; body: Readable | Buffer; headers?: AnswerHeaders }
    : { status: K; body?: undefined; headers?: AnswerHeaders };

export type AnswerOf<R extends RouteResponses> = { [K in DeclaredStatus<R>]: AnswerFor<R, K> }[DeclaredStatus<R>];

/** What a handler gets: the request's params, query and body parsed with the route's schemas; `req` for a body it streams itself (multipart). */
export interface HandlerInput<Route> {
  params: Route extends RouteDeclaration<infer P> ? z.output<P> : never;
  query: Route extends RouteDeclaration<z.ZodType, infer Q> ? z.output<Q> : never;
  body: Route extends RouteDeclaration<z.ZodType, z.ZodType, infer B> ? z.output<B> : never;
  req: Request;
}

/** The caller: the token's actor on a bearer route, none on a public or API-key one. */
export type CallerOf<Route> = Route extends { access: infer A } ? ([A] extends ['bearer'] ? Actor : null) : never;

export type Handler<Route, Ctx> = (input: HandlerInput<Route>, ctx: Ctx, actor: CallerOf<Route>) => Promise<Route extends { responses: infer R extends RouteResponses } ? AnswerOf<R> : never>;

/** A handler, or one with the binding's options (guards, the spec's error for a bad path parameter, a check run before the body's schema). */
export type HandlerEntry<Route, Ctx> = Handler<Route, Ctx> | { options: BindOptions; handle: Handler<Route, Ctx> };

export type Handlers<C extends RouteContract, Ctx> = { [K in keyof C]: HandlerEntry<C[K], Ctx> };

/** The context a router mounts with: the service's verifier and logger, whatever else its handlers use. */
interface RouterContext {
  verifier: TokenVerifier;
  logger: Logger;
}

/** A contract with its handlers, ready to mount on an app. */
export interface Implementation<Ctx> {
  routes: readonly RouteDeclaration[];
  mount(app: Express | Router, ctx: Ctx, options?: { apiKey?: string }): void;
}

/**
 * `implement` for a service whose handlers take `Ctx`: a service says it once
 * (`export const implement = implementFor<HoursBankContext>()`), each feature then writes
 * `implement(hoursBankContract, { read: async ({ params }, ctx, actor) => ({ status: 200, body: … }), … })`.
 */
export function implementFor<Ctx extends RouterContext>() {
  return function implement<C extends RouteContract>(contract: C, handlers: NoInfer<Handlers<C, Ctx>>): Implementation<Ctx> {
    const entries = Object.keys(contract).map((name) => {
      const entry = (handlers as Record<string, HandlerEntry<unknown, Ctx>>)[name];
      if (!entry) throw new Error(`implement: no handler for route ${name}`);
      return { route: contract[name]!, ...(typeof entry === 'function' ? { options: {}, handle: entry } : entry) };
    });
    const extra = Object.keys(handlers).filter((name) => !(name in contract));
    if (extra.length) throw new Error(`implement: handlers for routes the contract does not declare: ${extra.join(', ')}`);
    return {
      routes: entries.map((entry) => entry.route),
      mount(app, ctx, options = {}) {
        const bind = routeBinder(app, ctx, options);
        for (const { route, options, handle } of entries) {
          bind(route, options, async ({ params, query, body, req, res }) => {
            const actor = route.access === 'bearer' ? actorOf(req, res) : null;
            const answer = await (handle as Handler<RouteDeclaration, Ctx>)({ params, query, body, req } as HandlerInput<RouteDeclaration>, ctx, actor as never);
            await send(res, answer as { status: number; body?: unknown; headers?: AnswerHeaders }, ctx.logger);
          });
        }
      },
    };
  };
}

async function send(res: Response, answer: { status: number; body?: unknown; headers?: AnswerHeaders }, logger: Logger): Promise<void> {
  res.status(answer.status);
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  const { body } = answer;
  if (body === undefined) {
    res.end();
  } else if (body instanceof Readable) {
    // A stream that fails midway ends the response (the client sees it incomplete), never the process;
    // a client that goes away midway is no error of ours.
    await pipeline(body, res).catch((error: unknown) => {
      const clientGone = (error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE';
      logger[clientGone ? 'debug' : 'error']({ err: error }, clientGone ? 'answer: the client went away midway' : 'answer: the stream failed midway');
    });
  } else if (Buffer.isBuffer(body)) {
    res.send(body);
  } else if (res.req.method === 'GET' || res.req.method === 'HEAD') {
    // A read: Express's ETag of the body and its 304 for a conditional request.
    res.json(body);
  } else {
    // A write's answer: the same JSON and headers, without the ETag Express hashes every body for
    // (a conditional request is a read's; issue 32: ~2% of academic's CPU a review).
    sendJson(res, answer.status, body);
  }
}

export interface MountOptions {
  /** The service's route families: a route of theirs that no implementation handles fails the start (declared in the contracts, left out of every contract). */
  families?: readonly DeclaredFamily[];
  /** The key of its `api-key` routes. */
  apiKey?: string;
}

/** Mounts a service's implementations on `app`, in order. */
export function mountImplementations<Ctx extends RouterContext>(app: Express | Router, ctx: Ctx, implementations: Implementation<Ctx>[], options: MountOptions = {}): void {
  const implemented = new Set(implementations.flatMap((implementation) => implementation.routes));
  const missing = (options.families ?? []).flatMap((family) => family.routes).filter((route) => !implemented.has(route));
  if (missing.length) throw new Error(`routes with no handler: ${missing.map((route) => `${route.method.toUpperCase()} ${route.path}`).join(', ')}`);
  for (const implementation of implementations) implementation.mount(app, ctx, { apiKey: options.apiKey });
}
