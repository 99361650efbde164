import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { seedEmployee, useIncidents } from './support.ts';

describe('Cache-Control of incidents answers', () => {
  const service = useIncidents();

  test('GET /api/v2/timerecord/open answers Cache-Control: no-store (one employee’s record, kept by no cache)', async () => {
    const { auth } = await seedEmployee(service());
    const res = await request(service().url).get('/api/v2/timerecord/open').set(auth);
    expect([res.status, res.headers['cache-control']]).toEqual([200, 'no-store']);
  });
});
