import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { declaredFamilies } from './http/index.ts';
import { CONSOLE_SESSION_PATH, registerConsoleSession } from './http/console-session.ts';
import { registerRoutes } from './routes.ts';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/** One OpenAPI 3.1 document for every route behind the gateway, generated from the zod schemas. */
export function buildOpenApiDocument(options: { version?: string; serverUrl?: string } = {}): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  registry.registerComponent('securitySchemes', 'apiKey', { type: 'apiKey', in: 'header', name: 'x-api-key' });
  registerIdempotency(registry);
  registerRoutes(registry, declaredFamilies);
  registerConsoleSession(registry);
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Academy API',
      version: options.version ?? '2.0.0',
      description: 'Every route behind the gateway. Errors: `{ code, message, details?, requestId }` unless the route family fixes another body.',
    },
    servers: options.serverUrl ? [{ url: options.serverUrl }] : undefined,
  });
  return withIdempotencyKeys(document);
}

const WRITE_METHODS = ['post', 'put', 'patch', 'delete'] as const;
const IDEMPOTENCY_ANSWERS = {
  409: { name: 'IdempotencyKeyInUse', text: '`IDEMPOTENCY_KEY_IN_USE`: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds' },
  422: { name: 'IdempotencyKeyReused', text: '`IDEMPOTENCY_KEY_REUSED`: this Idempotency-Key was used with a different request' },
} as const;

/** The `Idempotency-Key` header every write accepts (libs/service's requestScope), and its two answers. */
function registerIdempotency(registry: OpenAPIRegistry): void {
  registry.registerComponent('parameters', 'IdempotencyKey', {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request ' +
      '(method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). ' +
      'Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
  });
  registry.registerComponent('headers', 'IdempotentReplayed', {
    description: '`true` when this answer is the stored outcome of an earlier request with the same Idempotency-Key (the write was not done again)',
    schema: { type: 'string', enum: ['true'] },
  });
  // The default error body (`Error`, the schema of `ErrorBody`): the key is checked before any route family's style applies.
  const body = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
  registry.registerComponent('responses', IDEMPOTENCY_ANSWERS[409].name, {
    description: IDEMPOTENCY_ANSWERS[409].text,
    headers: { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', example: 1 } } },
    content: body,
  });
  registry.registerComponent('responses', IDEMPOTENCY_ANSWERS[422].name, { description: IDEMPOTENCY_ANSWERS[422].text, content: body });
}

/** Every write operation lists the header, its 409 and 422 (added to the route's own 409 when it has one), and `Idempotent-Replayed` on its 2xx. */
function withIdempotencyKeys(document: OpenApiDocument): OpenApiDocument {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    // The gateway's console session keeps no Idempotency-Key: a login or logout runs again, a refresh must not be retried.
    if (path.startsWith(CONSOLE_SESSION_PATH)) continue;
    for (const method of WRITE_METHODS) {
      const operation = item?.[method];
      if (!operation) continue;
      operation.parameters = [...(operation.parameters ?? []), { $ref: '#/components/parameters/IdempotencyKey' }];
      const responses = (operation.responses ??= {});
      for (const [status, answer] of Object.entries(IDEMPOTENCY_ANSWERS)) {
        const own = responses[status];
        if (!own) responses[status] = { $ref: `#/components/responses/${answer.name}` };
        else if ('description' in own) own.description = `${own.description}. Also ${answer.text}`;
      }
      for (const [status, response] of Object.entries(responses)) {
        if (!status.startsWith('2') || !('description' in response)) continue;
        response.headers = { ...response.headers, 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } };
      }
    }
  }
  return document;
}
