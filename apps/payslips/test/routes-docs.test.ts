import { describe, expect, test } from '@jest/globals';
import { expectRoutesMatchDocs, routesIgnoringUnknownQuery } from '@academy/testing/routes-docs';
import { adminAuth, usePayslips } from './support.ts';

describe('payslips routes, OpenAPI document and gateway table', () => {
  const payslips = usePayslips();

  test('every mounted route is documented, every documented route is mounted, and the gateway sends each to payslips', () => {
    expectRoutesMatchDocs(payslips().app, 'payslips');
  });

  test('every route refuses a query parameter it does not read: 400 naming it', async () => {
    expect(await routesIgnoringUnknownQuery(payslips().app, payslips().url, adminAuth)).toEqual([]);
  });
});
