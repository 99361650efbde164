import { describe, test } from '@jest/globals';
import { expectRoutesMatchDocs } from '@academy/testing/routes-docs';
import { useIncidents } from './support.ts';

describe('incidents routes, OpenAPI document and gateway table', () => {
  const incidents = useIncidents();

  test('every mounted route is documented, every documented route is mounted, and the gateway sends each to incidents', () => {
    expectRoutesMatchDocs(incidents().app, 'incidents');
  });
});
