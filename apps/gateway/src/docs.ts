import { Router } from 'express';
import helmet from 'helmet';
import swaggerUi from 'swagger-ui-express';
import { buildOpenApiDocument } from '@academy/contracts';

/** `/api/docs`: Swagger UI over the one OpenAPI document, built once at start; the raw JSON at `/api/docs/openapi.json`. */
export function docsRouter(): Router {
  const document = buildOpenApiDocument();
  const router = Router();
  // The default CSP upgrades asset requests to https, which leaves the UI blank on a plain-http dev gateway.
  router.use(helmet.contentSecurityPolicy({ directives: { upgradeInsecureRequests: null } }));
  router.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  router.use('/', swaggerUi.serve, swaggerUi.setup(document, { customSiteTitle: 'Academy API' }));
  return router;
}
