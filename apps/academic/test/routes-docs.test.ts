import { describe, test } from '@jest/globals';
import { expectRoutesMatchDocs } from '@academy/testing/routes-docs';
import { useAcademic } from './support.ts';

describe('academic routes, OpenAPI document and gateway table', () => {
  const { service } = useAcademic();

  test('every mounted route is documented, every documented route is mounted, and the gateway sends each to academic', () => {
    expectRoutesMatchDocs(service().app, 'academic', {
      // STUDENT_BLOCK_ID_REQUIRED when the id is left out of …/student-block/{studentBlockId}/review
      missingParameterRoutes: ['POST /api/v2/blocks/student-block/review'],
    });
  });
});
