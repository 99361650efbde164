import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import { ZodError } from 'zod';
import { buildInfo } from './build-info.ts';
import { AppError, RecordedAnswer } from './errors.ts';
import { readinessHttpStatus, runReadiness, type ReadinessCheck } from './health.ts';
import type { ErrorStyle } from '@academy/contracts';
import type { Logger } from './logger.ts';
import type { Metrics } from './metrics.ts';
import { currentSpan } from './telemetry.ts';

/** How a route family shapes its error bodies (the bodies are the contracts' error-body schemas). */
export type { ErrorStyle };

export interface HttpAppOptions {
  logger: Logger;
  metrics: Metrics;
  readiness: ReadinessCheck[];
  bodyLimit?: string;
  /** Mounts the service's routes; runs after the common middleware, before the error handler. */
  routes: (app: Express) => void;
  /** Runs before the body parser (the gateway proxies raw bodies). */
  beforeBody?: (app: Express) => void;
  /** Per-request hook run first, e.g. MikroORM's RequestContext. */
  requestScope?: RequestHandler;
  /** Proxies whose X-Forwarded-For is believed (Express "trust proxy"); loopback by default. */
  trustProxy?: string;
  /** The app's name: `/version` answers it with its release and commit (`buildInfo`). */
  app?: string;
}

export const REQUEST_ID_HEADER = 'x-request-id';
/** Mounted by every service for probes and scraping, not behind the gateway and not logged per request. */
export const OPERATIONAL_PATHS = ['/healthz', '/readyz', '/metrics', '/version'];
const REQUEST_ID_PATTERN = /^[\w.:-]{1,128}$/;

export function requestId(req: IncomingMessage): string {
  return (req as IncomingMessage & { id: string }).id;
}

/**
 * The front of every request, on plain Node objects: the request id (a client's well-formed
 * `x-request-id` kept, otherwise a new one, echoed back and passed on), the access log (pino-http,
 * `req.log`), and the HTTP metrics, labelled by `route(req)` when the response finishes.
 * `createHttpApp` mounts it first; the gateway runs it on the requests it proxies without Express.
 */
export function requestFront(logger: Logger, metrics: Metrics, route: (req: IncomingMessage) => string): (req: IncomingMessage, res: ServerResponse) => void {
  const accessLog = pinoHttp({
    logger,
    // What an access line needs, not every header: pino-http binds the serialized request to a child
    // logger on every request, whatever the level, so a lean one is cheaper and keeps cookies and
    // tokens out of the logs by construction.
    serializers: {
      req: (req: { id: string; method: string; url: string; remoteAddress?: string; headers: Record<string, unknown> }) => ({
        id: req.id,
        method: req.method,
        url: req.url,
        remoteAddress: req.remoteAddress,
        userAgent: req.headers['user-agent'],
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    genReqId: (req) => requestId(req),
    autoLogging: { ignore: (req) => OPERATIONAL_PATHS.includes(req.url ?? '') },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
  });
  return (req, res) => {
    const incoming = req.headers[REQUEST_ID_HEADER];
    const id = typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    (req as IncomingMessage & { id: string }).id = id;
    req.headers[REQUEST_ID_HEADER] = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    // The request's span (the http instrumentation's) carries the request id: `npm run trace -- <id>` finds it.
    const span = currentSpan();
    span?.setAttribute('academy.request_id', id);
    accessLog(req, res);
    const end = metrics.httpDuration.startTimer();
    res.once('finish', () => {
      const labels = { method: req.method ?? '', route: route(req), status: String(res.statusCode) };
      span?.updateName(`${labels.method} ${labels.route}`);
      end(labels);
      metrics.httpRequests.inc(labels);
    });
  };
}

/** The route label of an Express request: its matched route pattern, or `unmatched`. */
function expressRoute(req: IncomingMessage): string {
  const { route, baseUrl } = req as Request;
  return route ? `${baseUrl}${route.path === '/' && baseUrl ? '' : route.path}` : 'unmatched';
}

/** Sets the error body style of every route mounted after it. */
export function errorStyle(style: ErrorStyle): RequestHandler {
  return (_req, res, next) => {
    res.locals.errorStyle = style;
    next();
  };
}

export function createHttpApp(options: HttpAppOptions): Express {
  const { logger, metrics } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', (options.trustProxy ?? 'loopback').split(',').map((entry) => entry.trim()));
  app.set('query parser', 'simple');

  const front = requestFront(logger, metrics, expressRoute);
  app.use((req, res, next) => {
    front(req, res);
    next();
  });
  app.use(helmet());

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  if (options.app) {
    const build = buildInfo(options.app);
    app.get('/version', (_req, res) => {
      res.json(build);
    });
  }
  app.get('/readyz', async (_req, res) => {
    const report = await runReadiness(options.readiness);
    res.status(readinessHttpStatus(report)).json(report);
  });
  app.get('/metrics', async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });

  options.beforeBody?.(app);
  app.use(express.json({ limit: options.bodyLimit ?? '100kb' }));
  if (options.requestScope) app.use(options.requestScope);
  options.routes(app);

  app.use((req, _res, next) => {
    next(new AppError(404, 'ROUTE_NOT_FOUND', `No route for ${req.method} ${req.path}`));
  });
  app.use(errorHandler(logger));
  return app;
}

interface HttpishError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
  message: string;
  /** body-parser's: the raw body it could not take. */
  body?: unknown;
}

/** The JSON value a body is when it is valid JSON (body-parser refuses one that is not an object or array: `null`, `"x"`, `1`), else undefined. */
function jsonValueOf(body: unknown): { value: unknown } | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    return { value: JSON.parse(body) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * pg-pool's error when no connection came free (or opened) within the pool's `connectionTimeoutMillis`
 * (`DATABASE_ACQUIRE_TIMEOUT_MS`): a starved or unreachable database, a passing condition (503), also
 * when MikroORM wraps it.
 */
function isPoolStarved(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 3; cause = cause.cause, depth++) {
    if (cause.message.includes('timeout exceeded when trying to connect')) return true;
  }
  return false;
}

/** Turns anything thrown into a status and a body: known errors as they say, the rest a logged 500. */
export function toErrorResponse(error: unknown): { status: number; code: string; message: string; details?: unknown; headers?: Record<string, string> } {
  if (error instanceof AppError) {
    return { status: error.status, code: error.code, message: error.message, details: error.details, headers: error.headers };
  }
  if (error instanceof ZodError) {
    const details = error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
    const message = details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join('; ');
    return { status: 400, code: 'VALIDATION_ERROR', message: `Invalid request: ${message}`, details };
  }
  if (isPoolStarved(error)) {
    return { status: 503, code: 'DATABASE_BUSY', message: 'The database has no free connection right now; retry shortly', headers: { 'Retry-After': '1' } };
  }
  const httpish = error as HttpishError;
  const status = httpish?.status ?? httpish?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const parsed = httpish.type === 'entity.parse.failed' ? jsonValueOf(httpish.body) : undefined;
    if (parsed) {
      const what = parsed.value === null ? 'null' : typeof parsed.value;
      return { status: 400, code: 'VALIDATION_ERROR', message: `Invalid request: the body must be a JSON object, not ${what}`, details: [{ path: '', message: `expected a JSON object, received ${what}` }] };
    }
    // body-parser: malformed JSON, body too large, unsupported charset…
    const code = httpish.type === 'entity.too.large' ? 'PAYLOAD_TOO_LARGE' : httpish.type === 'entity.parse.failed' ? 'MALFORMED_JSON' : 'BAD_REQUEST';
    const message = code === 'PAYLOAD_TOO_LARGE' ? 'Request body is too large' : code === 'MALFORMED_JSON' ? 'Request body is not valid JSON' : httpish.message;
    return { status, code, message };
  }
  return { status: 500, code: 'INTERNAL_ERROR', message: 'Internal server error' };
}

export function errorBody(style: ErrorStyle, response: ReturnType<typeof toErrorResponse>, id: string): Record<string, unknown> {
  const { code, message, details } = response;
  const extra = details === undefined ? {} : { details };
  switch (style) {
    case 'status':
      return { status: 'error', message, code, ...extra, requestId: id };
    case 'success':
      return { success: false, message, code, ...extra, requestId: id };
    default:
      return { code, message, ...extra, requestId: id };
  }
}

export function errorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    if (error instanceof RecordedAnswer) {
      if (error.contentType) res.setHeader('content-type', error.contentType);
      res.status(error.status).send(error.body);
      return;
    }
    sendError(req, res, error, res.locals.errorStyle ?? 'default', logger);
  };
}

/** Answers `error` as JSON in the given style, on plain Node objects (a 5xx is logged). */
export function sendError(req: IncomingMessage, res: ServerResponse, error: unknown, style: ErrorStyle, logger: Logger): void {
  const response = toErrorResponse(error);
  if (response.status >= 500) ((req as Request).log ?? logger).error({ err: error }, 'unhandled error');
  for (const [name, value] of Object.entries(response.headers ?? {})) res.setHeader(name, value);
  sendJson(res, response.status, errorBody(style, response, requestId(req)));
}

/** A JSON answer on plain Node objects, with the headers Express's `res.json` would set. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(json));
  res.end(json);
}
