export { EventEnvelope } from './events/envelope.ts';
export * from './events/catalogue.ts';
export * from './http/index.ts';
export { buildOpenApiDocument, type OpenApiDocument } from './openapi.ts';
export { ROUTES, ROUTE_FAMILIES, SERVICES, matchRoute, type RouteRule, type ServiceName } from './route-table.ts';
export { routeFamily, gatewayRules, openApiRoute, registerRoutes, errorBodyOf, type Access, type HttpMethod, type RouteFamily, type DeclaredFamily, type RouteDeclaration, type RouteRequest } from './routes.ts';
export { createEnvelope, parseEnvelope, defineHandlers, type TypedEnvelope, type EnvelopeMeta, type ParsedEnvelope, type EnvelopeHandlers } from './events/typed.ts';
export { LATEST_SCHOOL_COURSE_ORDER, latestSchoolCourseSql } from './school-course-rule.ts';
export { demoTaxId, findSpanishTaxIds, isValidSpanishTaxId, normalizeTaxId } from './tax-id.ts';
