import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { bearer } from '@academy/testing';
import { sql, useNotifications } from '../support.ts';

// Issue 28 item 8: a page past the last has no rows, and the same totals as page 1.
describe('GET /api/v2/notifications/deliveries past its last page', () => {
  const service = useNotifications();
  const admin = bearer({ sub: '1', role: 'admin' });

  test('page 9 of 3 deliveries answers no rows, 3 items and 3 pages', async () => {
    await sql(
      service(),
      `insert into deliveries (event_id, event_type, channel, recipient, user_id, status, attempts, created_at, updated_at)
       select 'paging-' || n, 'block.approved', 'email', 'paging@school.test', null, 'sent', 1, now(), now() from generate_series(1, 3) n`,
    );
    const list = (page: number) => request(service().url).get(`/api/v2/notifications/deliveries?recipient=paging@school.test&limit=1&page=${page}`).set(admin);
    const [first, past] = [await list(1), await list(9)];
    expect([first.status, first.body.data.length, first.body.meta]).toEqual([200, 1, { totalItems: 3, totalPages: 3, currentPage: 1, pageSize: 1 }]);
    expect([past.status, past.body.success, past.body.data, past.body.meta]).toEqual([200, true, [], { totalItems: 3, totalPages: 3, currentPage: 9, pageSize: 1 }]);
  });
});
