import { describe, expect, test } from '@jest/globals';
import { bearer } from '@academy/testing';
import { expectRoutesMatchDocs, routesIgnoringUnknownQuery } from '@academy/testing/routes-docs';
import { useIncidents } from './support.ts';

describe('incidents routes, OpenAPI document and gateway table', () => {
  const incidents = useIncidents();

  test('every mounted route is documented, every documented route is mounted, and the gateway sends each to incidents', () => {
    expectRoutesMatchDocs(incidents().app, 'incidents');
  });

  test('every route refuses a query parameter it does not read: 400 naming it', async () => {
    expect(await routesIgnoringUnknownQuery(incidents().app, incidents().url, bearer({ role: 'admin', sub: '1', employeeId: 1 }))).toEqual([]);
  });
});
