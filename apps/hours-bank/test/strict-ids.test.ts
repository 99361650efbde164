import { beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { bearer } from '@academy/testing';
import { seedEmployee, seedSchoolCourse, sql, useHoursBank } from './support.ts';

const admin = bearer({ role: 'admin', sub: '1' });

// Issue 13, point 5: `POST /hours-bank/0x1/completed` credited employee 1. One strict id grammar.
describe('hours-bank ids are read strictly', () => {
  // The harness's slot: a start slower than a hook's 30 s at load is waited for (120 s), and stopped even when it ends late.
  const service = useHoursBank();
  let employeeId: number;
  let courseId: number;

  beforeAll(async () => {
    courseId = await seedSchoolCourse(service(), '2025-09-01');
    employeeId = await seedEmployee(service());
  });

  test.each(['0x', '+', ' ', '0'])('an employee id written with a %j prefix is a 400 and credits nobody', async (prefix) => {
    // An employee of its own: another test of this file credits the shared one, in whatever order they run.
    const target = await seedEmployee(service());
    const res = await request(service().url).post(`/api/v2/hours-bank/${encodeURIComponent(prefix)}${target}/completed`).set(admin).send({ time: '1h' });
    expect(res.status).toBe(400);
    expect(await sql(service(), 'select 1 from hours_banks where employee_id = ?', [target])).toHaveLength(0);
  });

  test('1e0-style and padded ids in the path, and loose schoolCourseId in the query, are 400s', async () => {
    expect((await request(service().url).get(`/api/v2/hours-bank/${employeeId}e0`).set(admin)).status).toBe(400);
    expect((await request(service().url).get(`/api/v2/hours-bank/${employeeId}`).query({ schoolCourseId: `0x${courseId.toString(16)}` }).set(admin)).status).toBe(400);
  });

  test('a schoolCourseId in a JSON body must be a number: the string is a 400', async () => {
    const res = await request(service().url).post(`/api/v2/hours-bank/${employeeId}/completed`).set(admin).send({ time: '1h', schoolCourseId: String(courseId) });
    expect(res.status).toBe(400);
    const ok = await request(service().url).post(`/api/v2/hours-bank/${employeeId}/completed`).set(admin).send({ time: '1h', schoolCourseId: courseId });
    expect(ok.status).toBe(200);
  });
});
