import { beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import type { RunningService } from '@academy/service';
import { bearer } from '@academy/testing';
import type { Config } from '../src/config.ts';
import { seedEmployee, seedSchoolCourse, sql, useHoursBank } from './support.ts';

const admin = bearer({ role: 'admin', sub: '1' });
const base = '/api/v2/hours-bank';

// Issue 13, point 2: a refused write leaves no trace. The bank is created by the very statement
// that records the first operation, so an addition refused at any step leaves no empty bank
// behind (a later GET would otherwise answer 0h instead of 404).
describe('a refused write leaves no trace', () => {
  // The harness's slot: a start slower than a hook's 30 s at load is waited for (120 s), and stopped even when it ends late.
  const started = useHoursBank();
  let service: RunningService<Config>;
  const api = () => request(service.url);
  const read = (employeeId: number) => api().get(`${base}/${employeeId}`).set(admin);
  const traces = async (employeeId: number) => ({
    banks: await sql(service, 'select 1 from hours_banks where employee_id = ?', [employeeId]),
    events: await sql(service, `select 1 from outbox where (envelope->'data'->>'employeeId')::int = ?`, [employeeId]),
  });

  beforeAll(async () => {
    service = started();
    await seedSchoolCourse(service, '2025-09-01');
  });

  // Every refusal of the spec's error table that an addition can meet, plus the house's own 400s.
  const refusals: [string, (employeeId: number) => { path: string; body: unknown; auth?: Record<string, string> }, number, string][] = [
    ['Time is required', (id) => ({ path: `${id}/completed`, body: {} }), 400, 'TIME_REQUIRED'],
    ['INVALID_TIME_FORMAT', (id) => ({ path: `${id}/pending`, body: { time: '1.5h' } }), 400, 'INVALID_TIME_FORMAT'],
    ['INVALID_MINUTES', (id) => ({ path: `${id}/completed`, body: { time: '1h 60m' } }), 400, 'INVALID_MINUTES'],
    ['INVALID_HOURS (zero)', (id) => ({ path: `${id}/pending`, body: { time: '0h' } }), 400, 'INVALID_HOURS'],
    ['INVALID_HOURS (too many)', (id) => ({ path: `${id}/completed`, body: { time: '1000h' } }), 400, 'INVALID_HOURS'],
    ['Employee ID is required (the id padded)', (id) => ({ path: `0${id}/completed`, body: { time: '1h' } }), 400, 'EMPLOYEE_ID_REQUIRED'],
    ['Unauthorized', (id) => ({ path: `${id}/completed`, body: { time: '1h' }, auth: {} }), 401, 'UNAUTHORIZED'],
    ['a user may not change banks', (id) => ({ path: `${id}/completed`, body: { time: '1h' }, auth: bearer({ role: 'user', sub: '5', employeeId: id }) }), 403, 'FORBIDDEN'],
    ['No school course found', (id) => ({ path: `${id}/pending`, body: { time: '1h', schoolCourseId: 999_999 } }), 404, 'SCHOOL_COURSE_NOT_FOUND'],
    ['a date out of range', (id) => ({ path: `${id}/completed`, body: { time: '1h', date: '9999-12-31T23:30:00-01:00' } }), 400, 'VALIDATION_ERROR'],
    ['a reason with NUL', (id) => ({ path: `${id}/completed`, body: { time: '1h', reason: 'a\u0000b' } }), 400, 'VALIDATION_ERROR'],
    ['schoolCourseId as a string', (id) => ({ path: `${id}/completed`, body: { time: '1h', schoolCourseId: '1' } }), 400, 'VALIDATION_ERROR'],
    ['an unknown field', (id) => ({ path: `${id}/completed`, body: { time: '1h', hours: 2 } }), 400, 'VALIDATION_ERROR'],
  ];

  test.each(refusals)('%s: refused, and GET still answers 404 Hours bank not found', async (_name, make, status, code) => {
    const employeeId = await seedEmployee(service);
    const { path, body, auth = admin } = make(employeeId);
    const res = await api().post(`${base}/${path}`).set(auth).send(body as object);
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    const after = await read(employeeId);
    expect(after.status).toBe(404);
    expect(after.body).toMatchObject({ code: 'HOURS_BANK_NOT_FOUND', message: 'Hours bank not found' });
    expect(await traces(employeeId)).toEqual({ banks: [], events: [] });
  });

  test('an addition the database refuses after every check passed leaves no empty bank and no event', async () => {
    // A constraint only this test's rows break: the change's own statement fails, after the
    // employee, the course and the bank were resolved.
    await sql(service, `alter table hours_transactions add constraint refused_by_the_test check (reason is distinct from 'refused by the database')`);
    try {
      const employeeId = await seedEmployee(service);
      const res = await api().post(`${base}/${employeeId}/completed`).set(admin).send({ time: '1h', reason: 'refused by the database' });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect((await read(employeeId)).body).toMatchObject({ code: 'HOURS_BANK_NOT_FOUND', message: 'Hours bank not found' });
      expect(await traces(employeeId)).toEqual({ banks: [], events: [] });
      // The same employee's next, valid addition creates the bank once.
      await api().post(`${base}/${employeeId}/completed`).set(admin).send({ time: '1h' }).expect(200);
      expect((await read(employeeId)).body.data.totals.completedHours).toBe('1h');
      expect((await traces(employeeId)).banks).toHaveLength(1);
    } finally {
      await sql(service, 'alter table hours_transactions drop constraint refused_by_the_test');
    }
  });

  test('a refused edit or delete changes neither the bank nor the transaction', async () => {
    const employeeId = await seedEmployee(service);
    const added = await api().post(`${base}/${employeeId}/completed`).set(admin).send({ time: '2h' }).expect(200);
    const transactionId = added.body.data.transactionId as number;
    const before = await read(employeeId);
    for (const body of [{}, { time: '1h 60m' }, { time: '1h', extra: true }, { time: '1h', reason: 'a\u0000b' }]) {
      expect((await api().put(`${base}/transactions/${transactionId}`).set(admin).send(body)).status).toBe(400);
    }
    expect((await api().put(`${base}/transactions/0${transactionId}`).set(admin).send({ time: '1h' })).status).toBe(400);
    expect((await api().delete(`${base}/transactions/0${transactionId}`).set(admin)).status).toBe(400);
    expect((await api().delete(`${base}/transactions/${transactionId}`).set(bearer({ role: 'user', sub: '5', employeeId }))).status).toBe(403);
    expect((await read(employeeId)).body).toEqual(before.body);
  });
});
