import { beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import type { RunningService } from '@academy/service';
import {
  AddCompletedHoursResponse,
  AddPendingHoursResponse,
  DeleteTransactionResponse,
  EditTransactionResponse,
  HoursBankResponse,
} from '@academy/contracts';
import { fixedClock } from '@academy/kit';
import { bearer, tokenFor } from '@academy/testing';
import { bankRow, freshId, seedEmployee, seedSchoolCourse, sql, useHoursBank } from './support.ts';
import type { Config } from '../src/config.ts';

const admin = bearer({ role: 'admin', sub: '1' });
const base = '/api/v2/hours-bank';

describe('hours bank endpoints', () => {
  let service: RunningService<Config>;
  // Rows without a date take the clock's UTC day: pinned, so no test depends on the day it runs.
  const clock = fixedClock('2026-11-25T10:00:00Z');
  // The harness's slot: a start slower than a hook's 30 s at load is waited for (120 s), and stopped even when it ends late.
  const started = useHoursBank({ clock });
  let courseId: number;
  const api = () => request(service.url);
  const add = (employeeId: number | string, kind: 'completed' | 'pending', body: Record<string, unknown>) =>
    api().post(`${base}/${employeeId}/${kind}`).set(admin).send(body);
  const read = (employeeId: number, query = '') => api().get(`${base}/${employeeId}${query}`).set(admin);
  const edit = (transactionId: number | string, body: Record<string, unknown>) =>
    api().put(`${base}/transactions/${transactionId}`).set(admin).send(body);
  const remove = (transactionId: number | string) => api().delete(`${base}/transactions/${transactionId}`).set(admin);

  beforeAll(async () => {
    service = started();
    // The current course is the latest by start date; an older one exists too.
    await seedSchoolCourse(service, '2024-09-01');
    courseId = await seedSchoolCourse(service, '2025-09-01');
  });

  describe('POST /api/v2/hours-bank/:employeeId/completed', () => {
    test('with no pending, then all of it is added to completed', async () => {
      const employeeId = await seedEmployee(service);
      const res = await add(employeeId, 'completed', { time: '1h 30m', reason: 'Extra class' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: 'Completed hours registered successfully',
        data: {
          employeeId,
          schoolCourseId: courseId,
          totals: { pendingHours: '0h', completedHours: '1h 30m', pendingDecimal: 0, completedDecimal: 1.5 },
          details: { hoursRegistered: '1h 30m', hoursSubtractedFromPending: '0h', hoursAddedToCompleted: '1h 30m' },
          transactionId: expect.any(Number),
        },
      });
      expect(AddCompletedHoursResponse.safeParse(res.body).success).toBe(true);
      expect(await bankRow(service, employeeId, courseId)).toEqual({ pending_minutes: 0, completed_minutes: 90 });
    });

    test('when pending is 1h and 2h completed are added, then pending is 0h and completed 1h (spec example)', async () => {
      const employeeId = await seedEmployee(service);
      await add(employeeId, 'pending', { time: '1h' }).expect(200);
      const res = await add(employeeId, 'completed', { time: '2h' });
      expect(res.status).toBe(200);
      expect(res.body.data.totals).toEqual({ pendingHours: '0h', completedHours: '1h', pendingDecimal: 0, completedDecimal: 1 });
      expect(res.body.data.details).toEqual({ hoursRegistered: '2h', hoursSubtractedFromPending: '1h', hoursAddedToCompleted: '1h' });
    });

    test('when completed is smaller than pending, then it only reduces pending', async () => {
      const employeeId = await seedEmployee(service);
      await add(employeeId, 'pending', { time: '3h' }).expect(200);
      const res = await add(employeeId, 'completed', { time: '45m' });
      expect(res.body.data.totals).toEqual({ pendingHours: '2h 15m', completedHours: '0h', pendingDecimal: 2.25, completedDecimal: 0 });
      expect(res.body.data.details).toEqual({ hoursRegistered: '45m', hoursSubtractedFromPending: '45m', hoursAddedToCompleted: '0h' });
    });

    test('ten additions of 10m make exactly 1h 40m and 1.67', async () => {
      const employeeId = await seedEmployee(service);
      for (let i = 0; i < 10; i++) await add(employeeId, 'completed', { time: '10m' }).expect(200);
      const res = await read(employeeId);
      expect(res.body.data.totals).toEqual({ pendingHours: '0h', completedHours: '1h 40m', pendingDecimal: 0, completedDecimal: 1.67 });
      expect(await bankRow(service, employeeId, courseId)).toEqual({ pending_minutes: 0, completed_minutes: 100 });
    });

    test('with a date and an explicit older school course, then they are used', async () => {
      const employeeId = await seedEmployee(service);
      const olderCourse = await seedSchoolCourse(service, '2023-09-01');
      const res = await add(employeeId, 'completed', { time: '2h', date: '2024-03-15', schoolCourseId: olderCourse });
      expect(res.status).toBe(200);
      expect(res.body.data.schoolCourseId).toBe(olderCourse);
      const bank = await read(employeeId, `?schoolCourseId=${olderCourse}`);
      expect(bank.body.data.tracking.transactions[0].date).toBe('2024-03-15');
      expect(await bankRow(service, employeeId, courseId)).toBeUndefined();
    });

    test("a date-time is stored as its UTC day; without a date, the service clock's day (UTC) is used", async () => {
      const employeeId = await seedEmployee(service);
      await add(employeeId, 'completed', { time: '1h', date: '2026-01-15T23:30:00-02:00' }).expect(200);
      // 00:30 on the 28th in Madrid, still the 27th in UTC
      clock.set('2027-03-27T23:30:00Z');
      try {
        await add(employeeId, 'completed', { time: '1h' }).expect(200);
      } finally {
        clock.set('2026-11-25T10:00:00Z');
      }
      const dates = (await read(employeeId)).body.data.tracking.transactions.map((t: { date: string }) => t.date);
      expect(dates).toEqual(['2027-03-27', '2026-01-16']);
    });

    test('records hours-bank.transaction.recorded in the outbox in the same transaction', async () => {
      const employeeId = await seedEmployee(service);
      const res = await add(employeeId, 'completed', { time: '20m', reason: 'r' }).expect(200);
      const rows = await sql<{ envelope: { type: string; data: Record<string, unknown> } }>(
        service,
        `select envelope from outbox where type = 'hours-bank.transaction.recorded' and (envelope->'data'->>'transactionId')::int = ?`,
        [res.body.data.transactionId],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.envelope.data).toMatchObject({ employeeId, schoolCourseId: courseId, type: 'COMPLETED', minutes: 20, reason: 'r', byUserId: 1 });
    });
  });

  describe('POST /api/v2/hours-bank/:employeeId/pending', () => {
    test('when completed is 2h and 3h pending are added, then completed is 0h and pending 1h', async () => {
      const employeeId = await seedEmployee(service);
      await add(employeeId, 'completed', { time: '2h' }).expect(200);
      const res = await add(employeeId, 'pending', { time: '3h' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: 'Pending hours registered successfully',
        data: {
          employeeId,
          schoolCourseId: courseId,
          totals: { pendingHours: '1h', completedHours: '0h', pendingDecimal: 1, completedDecimal: 0 },
          details: { hoursRegistered: '3h', hoursSubtractedFromCompleted: '2h', hoursAddedToPending: '1h' },
          transactionId: expect.any(Number),
        },
      });
      expect(AddPendingHoursResponse.safeParse(res.body).success).toBe(true);
    });

    test('with no completed, then all of it is added to pending', async () => {
      const employeeId = await seedEmployee(service);
      const res = await add(employeeId, 'pending', { time: '25m' });
      expect(res.body.data.totals).toEqual({ pendingHours: '25m', completedHours: '0h', pendingDecimal: 0.42, completedDecimal: 0 });
      expect(res.body.data.details).toEqual({ hoursRegistered: '25m', hoursSubtractedFromCompleted: '0h', hoursAddedToPending: '25m' });
    });
  });

  describe('GET /api/v2/hours-bank/:employeeId', () => {
    test('returns totals, every row newest first and the rows by type', async () => {
      const employeeId = await seedEmployee(service);
      const first = (await add(employeeId, 'pending', { time: '1h', reason: 'Missed class', date: '2025-10-01' })).body.data.transactionId;
      const second = (await add(employeeId, 'completed', { time: '2h 30m', date: '2025-10-02' })).body.data.transactionId;
      const res = await read(employeeId);
      expect(res.status).toBe(200);
      expect(HoursBankResponse.safeParse(res.body).success).toBe(true);
      expect(res.body.message).toBe('ok');
      expect(res.body.data.employeeId).toBe(employeeId);
      expect(res.body.data.schoolCourseId).toBe(courseId);
      expect(res.body.data.totals).toEqual({ pendingHours: '0h', completedHours: '1h 30m', pendingDecimal: 0, completedDecimal: 1.5 });
      const { transactions, byType } = res.body.data.tracking;
      expect(transactions.map((t: { id: number }) => t.id)).toEqual([second, first]);
      expect(transactions[0]).toEqual({
        id: second,
        type: 'COMPLETED',
        date: '2025-10-02',
        hours: '2h 30m',
        hoursDecimal: 2.5,
        minutes: 150,
        pendingAffected: -1,
        completedAffected: 1.5,
        reason: null,
        isActive: true,
        reversesTransactionId: null,
        replacesTransactionId: null,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        createdBy: 1,
      });
      expect(transactions[1]).toMatchObject({ id: first, type: 'PENDING', reason: 'Missed class', pendingAffected: 1, completedAffected: 0 });
      expect(byType.completed.map((t: { id: number }) => t.id)).toEqual([second]);
      expect(byType.pending.map((t: { id: number }) => t.id)).toEqual([first]);
    });

    test('an employee with no operation in the course is 404 Hours bank not found', async () => {
      const employeeId = await seedEmployee(service);
      const res = await read(employeeId);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'HOURS_BANK_NOT_FOUND', message: 'Hours bank not found' });
    });

    test('a user reads the bank of their own employee', async () => {
      const employeeId = await seedEmployee(service);
      await add(employeeId, 'completed', { time: '1h' }).expect(200);
      const res = await api().get(`${base}/${employeeId}`).set(bearer({ role: 'user', sub: '50', employeeId }));
      expect(res.status).toBe(200);
      expect(res.body.data.totals.completedHours).toBe('1h');
    });

    test('ids follow the one strict grammar: a padded id (/007) or a malformed one is a 400, for a user on their own bank too', async () => {
      const employeeId = await seedEmployee(service);
      await add(employeeId, 'completed', { time: '1h' }).expect(200);
      const padded = await api().get(`${base}/00${employeeId}`).set(bearer({ role: 'user', sub: '50', employeeId }));
      expect(padded.status).toBe(400);
      expect(padded.body.message).toBe('Employee ID is required');
      const malformed = await api().get(`${base}/abc`).set(bearer({ role: 'user', sub: '50', employeeId }));
      expect(malformed.status).toBe(400);
      expect(malformed.body.message).toBe('Employee ID is required');
    });

    test("a user may not read another employee's bank (403)", async () => {
      const employeeId = await seedEmployee(service);
      const res = await api().get(`${base}/${employeeId}`).set(bearer({ role: 'user', sub: '50', employeeId: employeeId + 1 }));
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    });

    test('an unknown schoolCourseId is 404 No school course found; a malformed one is 400', async () => {
      const employeeId = await seedEmployee(service);
      const unknown = await read(employeeId, '?schoolCourseId=999999');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ code: 'SCHOOL_COURSE_NOT_FOUND', message: 'No school course found' });
      const malformed = await read(employeeId, '?schoolCourseId=abc');
      expect(malformed.status).toBe(400);
      expect(malformed.body.code).toBe('VALIDATION_ERROR');
    });
  });

  describe('PUT /api/v2/hours-bank/transactions/:transactionId', () => {
    test('reverts the original with a REVERSAL row and creates a new one of the same type, same offsetting', async () => {
      const employeeId = await seedEmployee(service);
      await add(employeeId, 'pending', { time: '1h' }).expect(200);
      const original = (await add(employeeId, 'completed', { time: '2h', reason: 'Workshop' })).body.data.transactionId;
      const res = await edit(original, { time: '30m' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: 'Transaction edited successfully',
        data: {
          employeeId,
          schoolCourseId: courseId,
          totals: { pendingHours: '30m', completedHours: '0h', pendingDecimal: 0.5, completedDecimal: 0 },
          details: { previousHours: '2h', newHours: '30m', transactionType: 'COMPLETED' },
          oldTransactionId: original,
          newTransactionId: expect.any(Number),
        },
      });
      expect(EditTransactionResponse.safeParse(res.body).success).toBe(true);
      const { transactions } = (await read(employeeId)).body.data.tracking;
      const newId = res.body.data.newTransactionId;
      const byId = (id: number) => transactions.find((t: { id: number }) => t.id === id);
      expect(byId(original)).toMatchObject({ isActive: false, type: 'COMPLETED' });
      expect(byId(newId)).toMatchObject({ isActive: true, type: 'COMPLETED', hours: '30m', reason: 'Workshop', replacesTransactionId: original });
      const reversal = transactions.find((t: { reversesTransactionId: number | null }) => t.reversesTransactionId === original);
      expect(reversal).toMatchObject({ type: 'REVERSAL', isActive: false, hours: '2h', pendingAffected: 1, completedAffected: -1 });
      expect(transactions).toHaveLength(4);
    });

    test('a new reason replaces the original one', async () => {
      const employeeId = await seedEmployee(service);
      const original = (await add(employeeId, 'pending', { time: '1h', reason: 'old' })).body.data.transactionId;
      const res = await edit(original, { time: '2h', reason: 'new' }).expect(200);
      const { transactions } = (await read(employeeId)).body.data.tracking;
      expect(transactions.find((t: { id: number }) => t.id === res.body.data.newTransactionId).reason).toBe('new');
      expect(res.body.data.totals.pendingHours).toBe('2h');
    });

    test('editing an inactive transaction is 404 Transaction not found and the balance is untouched', async () => {
      const employeeId = await seedEmployee(service);
      const original = (await add(employeeId, 'completed', { time: '1h' })).body.data.transactionId;
      await edit(original, { time: '2h' }).expect(200);
      const before = await bankRow(service, employeeId, courseId);
      const res = await edit(original, { time: '3h' });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'TRANSACTION_NOT_FOUND', message: 'Transaction not found' });
      expect(await bankRow(service, employeeId, courseId)).toEqual(before);
    });

    test('bad time or reason on edit is 400 and changes nothing', async () => {
      const employeeId = await seedEmployee(service);
      const original = (await add(employeeId, 'completed', { time: '1h' })).body.data.transactionId;
      const missing = await edit(original, {});
      expect(missing.status).toBe(400);
      expect(missing.body.message).toBe('Time is required');
      const bad = await edit(original, { time: '1h 60m' });
      expect(bad.body.code).toBe('INVALID_MINUTES');
      const nul = await edit(original, { time: '2h', reason: 'nul \u0000 inside' });
      expect(nul.status).toBe(400);
      expect(nul.body.code).toBe('VALIDATION_ERROR');
      expect((await read(employeeId)).body.data.tracking.transactions).toHaveLength(1);
    });
  });

  describe('DELETE /api/v2/hours-bank/transactions/:transactionId', () => {
    test('soft-deletes: the row becomes inactive and a REVERSAL row undoes its effect', async () => {
      const employeeId = await seedEmployee(service);
      await add(employeeId, 'completed', { time: '1h' }).expect(200);
      const pending = (await add(employeeId, 'pending', { time: '3h' })).body.data.transactionId;
      const res = await remove(pending);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: 'Transaction deleted successfully',
        data: {
          employeeId,
          schoolCourseId: courseId,
          totals: { pendingHours: '0h', completedHours: '1h', pendingDecimal: 0, completedDecimal: 1 },
          deletedTransaction: { id: pending, type: 'PENDING', totalHours: '3h' },
        },
      });
      expect(DeleteTransactionResponse.safeParse(res.body).success).toBe(true);
      const { transactions } = (await read(employeeId)).body.data.tracking;
      expect(transactions[0]).toMatchObject({ type: 'REVERSAL', reversesTransactionId: pending, pendingAffected: -2, completedAffected: 1, isActive: false, date: '2026-11-25' });
      expect(transactions.find((t: { id: number }) => t.id === pending).isActive).toBe(false);
      const reverted = await sql(service, `select 1 from outbox where type = 'hours-bank.transaction.reverted' and (envelope->'data'->>'transactionId')::int = ?`, [pending]);
      expect(reverted).toHaveLength(1);
    });

    test('the totals always equal the sum of the effects of every row', async () => {
      const employeeId = await seedEmployee(service);
      const a = (await add(employeeId, 'pending', { time: '2h' })).body.data.transactionId;
      await add(employeeId, 'completed', { time: '3h 15m' }).expect(200);
      await remove(a).expect(200);
      const [sums] = await sql<{ pending: number; completed: number }>(
        service,
        `select sum(pending_affected_minutes)::int as pending, sum(completed_affected_minutes)::int as completed
         from hours_transactions t join hours_banks b on b.id = t.hours_bank_id where b.employee_id = ?`,
        [employeeId],
      );
      expect(await bankRow(service, employeeId, courseId)).toEqual({ pending_minutes: sums!.pending, completed_minutes: sums!.completed });
      expect(sums).toEqual({ pending: 0, completed: 195 });
    });

    test('deleting twice is 404 Transaction not found and the balance is untouched', async () => {
      const employeeId = await seedEmployee(service);
      await add(employeeId, 'completed', { time: '5h' }).expect(200);
      const id = (await add(employeeId, 'completed', { time: '1h' })).body.data.transactionId;
      await remove(id).expect(200);
      const res = await remove(id);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Transaction not found');
      expect(await bankRow(service, employeeId, courseId)).toEqual({ pending_minutes: 0, completed_minutes: 300 });
    });

    test('a REVERSAL row cannot be deleted or edited (404), an unknown id is 404', async () => {
      const employeeId = await seedEmployee(service);
      const id = (await add(employeeId, 'completed', { time: '1h' })).body.data.transactionId;
      await remove(id).expect(200);
      const reversal = (await read(employeeId)).body.data.tracking.transactions[0].id;
      expect((await remove(reversal)).status).toBe(404);
      expect((await edit(reversal, { time: '1h' })).status).toBe(404);
      expect((await remove(99999999)).body.message).toBe('Transaction not found');
    });
  });

  describe('authorization', () => {
    test('no token, a malformed token or an expired token is 401 Unauthorized on every route', async () => {
      const employeeId = await seedEmployee(service);
      const expired = { authorization: `Bearer ${tokenFor({ role: 'admin' }, -60)}` };
      const calls = [
        () => api().get(`${base}/${employeeId}`),
        () => api().post(`${base}/${employeeId}/completed`).send({ time: '1h' }),
        () => api().post(`${base}/${employeeId}/pending`).set({ authorization: 'Bearer nope' }).send({ time: '1h' }),
        () => api().put(`${base}/transactions/1`).set(expired).send({ time: '1h' }),
        () => api().delete(`${base}/transactions/1`),
      ];
      for (const call of calls) {
        const res = await call();
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ code: 'UNAUTHORIZED', message: 'Unauthorized' });
      }
      expect(await bankRow(service, employeeId, courseId)).toBeUndefined();
    });

    test('a user may not change banks, not even their own (403)', async () => {
      const employeeId = await seedEmployee(service);
      const id = (await add(employeeId, 'completed', { time: '1h' })).body.data.transactionId;
      const user = bearer({ role: 'user', sub: '60', employeeId });
      expect((await api().post(`${base}/${employeeId}/completed`).set(user).send({ time: '1h' })).status).toBe(403);
      expect((await api().post(`${base}/${employeeId}/pending`).set(user).send({ time: '1h' })).status).toBe(403);
      expect((await api().put(`${base}/transactions/${id}`).set(user).send({ time: '2h' })).status).toBe(403);
      expect((await api().delete(`${base}/transactions/${id}`).set(user)).status).toBe(403);
      expect(await bankRow(service, employeeId, courseId)).toEqual({ pending_minutes: 0, completed_minutes: 60 });
    });
  });

  describe('bad input', () => {
    test.each<[Record<string, unknown>, string, string | undefined]>([
      [{}, 'TIME_REQUIRED', 'Time is required'],
      [{ time: '' }, 'TIME_REQUIRED', 'Time is required'],
      [{ time: null }, 'TIME_REQUIRED', 'Time is required'],
      [{ time: 90 }, 'INVALID_TIME_FORMAT', undefined],
      [{ time: '1.5h' }, 'INVALID_TIME_FORMAT', undefined],
      [{ time: 'h' }, 'INVALID_TIME_FORMAT', undefined],
      [{ time: '1h 30' }, 'INVALID_TIME_FORMAT', undefined],
      [{ time: '2H' }, 'INVALID_TIME_FORMAT', undefined],
      [{ time: 'a 10 KB string' }, 'INVALID_TIME_FORMAT', undefined],
      [{ time: '1h60m' }, 'INVALID_MINUTES', 'Minutes must be below 60'],
      [{ time: '1h 60m' }, 'INVALID_MINUTES', 'Minutes must be below 60'],
      [{ time: '0h' }, 'INVALID_HOURS', undefined],
      [{ time: '0h 0m' }, 'INVALID_HOURS', undefined],
      [{ time: '-1h' }, 'INVALID_HOURS', undefined],
      [{ time: '99999h' }, 'INVALID_HOURS', undefined],
      [{ time: '1h', date: 'not-a-date' }, 'VALIDATION_ERROR', undefined],
      [{ time: '1h', date: '2026-02-30' }, 'VALIDATION_ERROR', undefined],
      [{ time: '1h', date: '0000-01-01' }, 'VALIDATION_ERROR', undefined],
      [{ time: '1h', date: '0001-01-01T00:30:00+01:00' }, 'VALIDATION_ERROR', undefined],
      [{ time: '1h', date: '9999-12-31T23:30:00-01:00' }, 'VALIDATION_ERROR', undefined],
      [{ time: '1h', schoolCourseId: 0 }, 'VALIDATION_ERROR', undefined],
      [{ time: '1h', reason: 'a reason of 1001 characters' }, 'VALIDATION_ERROR', undefined],
      [{ time: '1h', reason: 'nul \u0000 inside' }, 'VALIDATION_ERROR', undefined],
    ])('body %j is 400 %s and changes nothing', async (shown, code, message) => {
      const body =
        shown.reason === 'a reason of 1001 characters'
          ? { ...shown, reason: 'r'.repeat(1001) }
          : shown.time === 'a 10 KB string'
            ? { time: `${'1'.repeat(10_239)}h` }
            : shown;
      const employeeId = await seedEmployee(service);
      const res = await add(employeeId, 'completed', body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(code);
      if (message) expect(res.body.message).toBe(message);
      expect(res.body.requestId).toEqual(expect.any(String));
      expect(await bankRow(service, employeeId, courseId)).toBeUndefined();
    });

    test.each([' 2h ', '1h30m', '999h 59m', '0h 30m', '59m', '1h'])('time %j is accepted', async (time) => {
      const employeeId = await seedEmployee(service);
      expect((await add(employeeId, 'pending', { time })).status).toBe(200);
    });

    test.each(['abc', '0', '-1', '1.5', '99999999999'])('employeeId %s is 400 Employee ID is required', async (employeeId) => {
      const res = await add(employeeId, 'completed', { time: '1h' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'EMPLOYEE_ID_REQUIRED', message: 'Employee ID is required' });
      expect((await api().get(`${base}/${employeeId}`).set(admin)).body.code).toBe('EMPLOYEE_ID_REQUIRED');
    });

    test.each(['abc', '0', '-1'])('transactionId %s is 400 Transaction ID is required', async (transactionId) => {
      const res = await remove(transactionId);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'TRANSACTION_ID_REQUIRED', message: 'Transaction ID is required' });
      expect((await edit(transactionId, { time: '1h' })).status).toBe(400);
    });

    test('missing ids are 400 Employee ID is required / Transaction ID is required', async () => {
      expect((await api().get(base).set(admin)).body.message).toBe('Employee ID is required');
      expect((await api().delete(`${base}/transactions`).set(admin)).body.message).toBe('Transaction ID is required');
    });

    test('an unknown employee is 404 Employee not found', async () => {
      const employeeId = freshId();
      const res = await add(employeeId, 'completed', { time: '1h' });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'EMPLOYEE_NOT_FOUND', message: 'Employee not found' });
      expect((await read(employeeId)).body.message).toBe('Employee not found');
      expect(await sql(service, 'select 1 from hours_banks where employee_id = ?', [employeeId])).toHaveLength(0);
    });

    test('an unknown schoolCourseId is 404 No school course found', async () => {
      const employeeId = await seedEmployee(service);
      const res = await add(employeeId, 'pending', { time: '1h', schoolCourseId: 999_999 });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'SCHOOL_COURSE_NOT_FOUND', message: 'No school course found' });
    });
  });
});

describe('hours bank with no school course at all', () => {
  const service = useHoursBank();

  test('adding hours is 404 No school course found', async () => {
    const employeeId = await seedEmployee(service());
    const res = await request(service().url).post(`${base}/${employeeId}/completed`).set(admin).send({ time: '1h' });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('No school course found');
    expect((await request(service().url).get(`${base}/${employeeId}`).set(admin)).body.message).toBe('No school course found');
  });
});
