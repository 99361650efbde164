import { describe, test } from '@jest/globals';
import { expectRoutesMatchDocs } from '@academy/testing/routes-docs';
import { usePayslips } from './support.ts';

describe('payslips routes, OpenAPI document and gateway table', () => {
  const payslips = usePayslips();

  test('every mounted route is documented, every documented route is mounted, and the gateway sends each to payslips', () => {
    expectRoutesMatchDocs(payslips().app, 'payslips');
  });
});
