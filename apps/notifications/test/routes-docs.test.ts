import { describe, test } from '@jest/globals';
import { expectRoutesMatchDocs } from '@academy/testing/routes-docs';
import { useNotifications } from './support.ts';

describe('notifications routes, OpenAPI document and gateway table', () => {
  const notifications = useNotifications();

  test('every mounted route is documented, every documented route is mounted, and the gateway sends each to notifications', () => {
    expectRoutesMatchDocs(notifications().app, 'notifications');
  });
});
