import { describe, expect, test } from '@jest/globals';
import express, { Router } from 'express';
import { documentedRoutes, mountedRoutes, openApiPath, routeDocsDrift } from '../src/routes-docs.ts';

/** The hours-bank routes as the documentation lists them, mounted the way a service mounts a router. */
function hoursBankLikeApp(extra?: (router: Router) => void) {
  const app = express();
  const router = Router();
  const ok: express.RequestHandler = (_req, res) => {
    res.end();
  };
  router.get('/', ok);
  router.all('/transactions', ok);
  router.put('/transactions/:transactionId', ok);
  router.delete('/transactions/:transactionId', ok);
  router.get('/:employeeId', ok);
  router.post('/:employeeId/completed', ok);
  router.post('/:employeeId/pending', ok);
  extra?.(router);
  app.use('/api/v2/hours-bank', router);
  app.get('/healthz', ok);
  return app;
}

describe('routes, docs and gateway rules', () => {
  test('mountedRoutes lists method and OpenAPI path of every route, following mounted routers, without the operational ones', () => {
    expect(mountedRoutes(hoursBankLikeApp())).toEqual([
      'ALL /api/v2/hours-bank/transactions',
      'DELETE /api/v2/hours-bank/transactions/{transactionId}',
      'GET /api/v2/hours-bank',
      'GET /api/v2/hours-bank/{employeeId}',
      'POST /api/v2/hours-bank/{employeeId}/completed',
      'POST /api/v2/hours-bank/{employeeId}/pending',
      'PUT /api/v2/hours-bank/transactions/{transactionId}',
    ]);
    expect(openApiPath('//a/:id/')).toBe('/a/{id}');
  });

  test('documentedRoutes gives the routes of the document that the gateway sends to the service', () => {
    expect(documentedRoutes('hours-bank')).toContain('GET /api/v2/hours-bank/{employeeId}');
    expect(documentedRoutes('hours-bank').every((key) => key.includes(' /api/v2/hours-bank/'))).toBe(true);
  });

  test('an app that mounts exactly the documented routes has no drift', () => {
    expect(routeDocsDrift(hoursBankLikeApp(), 'hours-bank', { missingParameterRoutes: ['GET /api/v2/hours-bank', 'ALL /api/v2/hours-bank/transactions'] })).toEqual({
      mountedButNotDocumented: [],
      documentedButNotMounted: [],
      mountedWithoutGatewayRule: [],
      wrongMissingParameterRoutes: [],
    });
  });

  test('a route added without docs, a documented route left unmounted and a path without a gateway rule are each named', () => {
    const app = hoursBankLikeApp((router) => {
      router.get('/:employeeId/summary', (_req, res) => {
        res.end();
      });
    });
    app.get('/api/v2/reports', (_req, res) => {
      res.end();
    });
    const drift = routeDocsDrift(app, 'hours-bank', { missingParameterRoutes: ['GET /api/v2/hours-bank', 'ALL /api/v2/hours-bank/transactions'] });
    expect(drift.mountedButNotDocumented).toEqual(['GET /api/v2/hours-bank/{employeeId}/summary', 'GET /api/v2/reports']);
    expect(drift.mountedWithoutGatewayRule).toEqual(['GET /api/v2/reports']);

    const bare = express();
    bare.get('/api/v2/hours-bank/:employeeId', (_req, res) => {
      res.end();
    });
    expect(routeDocsDrift(bare, 'hours-bank').documentedButNotMounted).toContain('POST /api/v2/hours-bank/{employeeId}/completed');
  });

  test('a missing-parameter route must be mounted and be a documented path with one {param} segment left out', () => {
    const drift = routeDocsDrift(hoursBankLikeApp(), 'hours-bank', {
      missingParameterRoutes: ['GET /api/v2/hours-bank', 'ALL /api/v2/hours-bank/transactions', 'GET /api/v2/hours-bank/nothing-here', 'POST /api/v2/hours-bank/{employeeId}/completed'],
    });
    expect(drift.wrongMissingParameterRoutes).toEqual(['GET /api/v2/hours-bank/nothing-here', 'POST /api/v2/hours-bank/{employeeId}/completed']);
    const inTheMiddle = hoursBankLikeApp((router) => {
      router.post('/completed', (_req, res) => {
        res.end();
      });
    });
    expect(routeDocsDrift(inTheMiddle, 'hours-bank', { missingParameterRoutes: ['GET /api/v2/hours-bank', 'ALL /api/v2/hours-bank/transactions', 'POST /api/v2/hours-bank/completed'] }).wrongMissingParameterRoutes).toEqual([]);
  });
});
