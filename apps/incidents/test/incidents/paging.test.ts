import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { clockFrom } from '@academy/kit';
import { adminAuth, insertRecord, seedEmployee, sql, useIncidents } from '../support.ts';

// Issue 28 item 8: a page past the last has no rows, and the same totals as page 1.
describe('paged lists past their last page', () => {
  const service = useIncidents({}, { clock: clockFrom('2027-01-06T10:00:00Z') });
  const api = () => request(service().url);

  test('GET /api/v2/incident/my and GET /api/v2/incident/ (admin): page 9 of 3 incidents answers no rows, 3 items and 3 pages', async () => {
    const employee = await seedEmployee(service());
    await sql(
      service(),
      `insert into incidents (employee_id, employee_user_id, kind, severity, status, description, day, created_at, updated_at)
       select $1, $2, 'CLOCK_OUT_WITHOUT_OPEN', 'medium', 'open', 'paging ' || n, date '2027-01-01' + n, now(), now() from generate_series(1, 3) n`,
      [employee.employeeId, employee.userId],
    );
    for (const [path, auth] of [
      ['/api/v2/incident/my', employee.auth],
      [`/api/v2/incident/?employeeId=${employee.employeeId}`, adminAuth],
    ] as const) {
      const join = path.includes('?') ? '&' : '?';
      const first = await api().get(`${path}${join}limit=1&page=1`).set(auth);
      const past = await api().get(`${path}${join}limit=1&page=9`).set(auth);
      expect([first.status, first.body.data.length, first.body.meta]).toEqual([200, 1, { totalItems: 3, totalPages: 3, currentPage: 1, pageSize: 1 }]);
      expect([past.status, past.body.data, past.body.meta]).toEqual([200, [], { totalItems: 3, totalPages: 3, currentPage: 9, pageSize: 1 }]);
    }
  });

  test('GET /api/v2/timerecord/history: page 5 of 3 days answers no days, 3 items and the period total', async () => {
    const { employeeId, auth } = await seedEmployee(service());
    await insertRecord(service(), employeeId, '2026-01-05T08:00:00Z', '2026-01-05T12:00:00Z');
    await insertRecord(service(), employeeId, '2026-01-06T08:00:00Z', '2026-01-06T09:00:00Z');
    await insertRecord(service(), employeeId, '2026-01-07T08:00:00Z', '2026-01-07T08:30:00Z');
    const past = await api().get('/api/v2/timerecord/history?from=2026-01-01&to=2026-01-31&limit=2&page=5').set(auth);
    expect([past.status, past.body.data, past.body.totalWorkedMinutes, past.body.meta]).toEqual([200, [], 330, { totalItems: 3, totalPages: 2, currentPage: 5, pageSize: 2 }]);
  });
});
