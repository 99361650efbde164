import { describe, expect, test } from '@jest/globals';
import { bearer } from '@academy/testing';
import { expectRoutesMatchDocs, routesIgnoringUnknownQuery } from '@academy/testing/routes-docs';
import { useAcademic } from './support.ts';

describe('academic routes, OpenAPI document and gateway table', () => {
  const { service } = useAcademic();

  test('every mounted route is documented, every documented route is mounted, and the gateway sends each to academic', () => {
    expectRoutesMatchDocs(service().app, 'academic', {
      // STUDENT_BLOCK_ID_REQUIRED when the id is left out of …/student-block/{studentBlockId}/review
      missingParameterRoutes: ['POST /api/v2/blocks/student-block/review'],
    });
  });

  test('every route (but the retired v1 update, gone whatever is sent) refuses a query parameter it does not read: 400 naming it', async () => {
    const except = ['POST /api/v2/blocks/student-block/review', 'PUT /api/v1/registration/update'] as const;
    expect(await routesIgnoringUnknownQuery(service().app, service().url, bearer({ role: 'admin', sub: '1' }), [...except])).toEqual([]);
  });
});
