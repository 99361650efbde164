export { EventEnvelope } from './events/envelope.ts';
export * from './events/catalogue.ts';
export * from './http/index.ts';
export { buildOpenApiDocument, type OpenApiDocument } from './openapi.ts';
