import { describe, expect, test } from '@jest/globals';
import { bearer } from '@academy/testing';
import { expectRoutesMatchDocs, routesIgnoringUnknownQuery, type RouteKey } from '@academy/testing/routes-docs';
import { useHoursBank } from './support.ts';

// the spec's "Employee ID is required" / "Transaction ID is required" when the id is left out (`paramLeftOut` of the declared route)
const missingParameterRoutes: RouteKey[] = ['GET /api/v2/hours-bank', 'PUT /api/v2/hours-bank/transactions', 'DELETE /api/v2/hours-bank/transactions'];

describe('hours-bank routes, OpenAPI document and gateway table', () => {
  const hoursBank = useHoursBank();

  test('every mounted route is documented, every documented route is mounted, and the gateway sends each to hours-bank', () => {
    expectRoutesMatchDocs(hoursBank().app, 'hours-bank', { missingParameterRoutes });
  });

  test('every route refuses a query parameter it does not read: 400 naming it', async () => {
    expect(await routesIgnoringUnknownQuery(hoursBank().app, hoursBank().url, bearer({ role: 'admin', sub: '1' }), missingParameterRoutes)).toEqual([]);
  });
});
