import { describe, test } from '@jest/globals';
import { expectRoutesMatchDocs } from '@academy/testing/routes-docs';
import { useHoursBank } from './support.ts';

describe('hours-bank routes, OpenAPI document and gateway table', () => {
  const hoursBank = useHoursBank();

  test('every mounted route is documented, every documented route is mounted, and the gateway sends each to hours-bank', () => {
    expectRoutesMatchDocs(hoursBank().app, 'hours-bank', {
      // the spec's "Employee ID is required" / "Transaction ID is required" when the id is left out
      missingParameterRoutes: ['GET /api/v2/hours-bank', 'GET /api/v2/hours-bank/transactions', 'ALL /api/v2/hours-bank/transactions'],
    });
  });
});
