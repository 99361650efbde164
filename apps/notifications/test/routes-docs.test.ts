import { describe, expect, test } from '@jest/globals';
import { bearer } from '@academy/testing';
import { expectRoutesMatchDocs, routesIgnoringUnknownQuery } from '@academy/testing/routes-docs';
import { API_KEY, useNotifications } from './support.ts';

describe('notifications routes, OpenAPI document and gateway table', () => {
  const notifications = useNotifications();

  test('every mounted route is documented, every documented route is mounted, and the gateway sends each to notifications', () => {
    expectRoutesMatchDocs(notifications().app, 'notifications');
  });

  test('every route refuses a query parameter it does not read: 400 naming it', async () => {
    expect(await routesIgnoringUnknownQuery(notifications().app, notifications().url, { ...bearer({ role: 'admin', sub: '1' }), 'x-api-key': API_KEY })).toEqual([]);
  });
});
