import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { bearer } from '@academy/testing';
import { seedEmployee, seedSchoolCourse, useHoursBank } from './support.ts';

describe('Cache-Control of hours-bank answers', () => {
  const service = useHoursBank();

  test('POST …/completed and GET /api/v2/hours-bank/:employeeId answer Cache-Control: no-store (one employee’s hours, kept by no cache)', async () => {
    await seedSchoolCourse(service());
    const employeeId = await seedEmployee(service());
    const admin = bearer({ role: 'admin', sub: '1' });
    const added = await request(service().url).post(`/api/v2/hours-bank/${employeeId}/completed`).set(admin).send({ time: '1h' });
    expect([added.status, added.headers['cache-control']]).toEqual([200, 'no-store']);
    const res = await request(service().url).get(`/api/v2/hours-bank/${employeeId}`).set(admin);
    expect([res.status, res.headers['cache-control']]).toEqual([200, 'no-store']);
  });
});
