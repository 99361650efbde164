import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { httpDocs } from './http/index.ts';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/** One OpenAPI 3.1 document for every route behind the gateway, generated from the zod schemas. */
export function buildOpenApiDocument(options: { version?: string; serverUrl?: string } = {}): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  registry.registerComponent('securitySchemes', 'apiKey', { type: 'apiKey', in: 'header', name: 'x-api-key' });
  for (const register of httpDocs) register(registry);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Academy API',
      version: options.version ?? '2.0.0',
      description: 'Every route behind the gateway. Errors: `{ code, message, details?, requestId }` unless the route family fixes another body.',
    },
    servers: options.serverUrl ? [{ url: options.serverUrl }] : undefined,
  });
}
