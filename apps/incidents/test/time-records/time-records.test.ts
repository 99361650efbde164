import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { PDFParse } from 'pdf-parse';
import { ClockInResponse, HistoryResponse, OpenRecordResponse } from '@academy/contracts';
import { clockFrom } from '@academy/kit';
import { bearer } from '@academy/testing';
import { adminAuth, insertRecord, outboxEvents, seedEmployee, sql, startIncidents, stopIncidents, useIncidents } from '../support.ts';

const base = '/api/v2/timerecord';

/** The service's clock starts here (a Wednesday morning), whatever the hour of the run: "today" is this day. */
const PINNED = '2027-01-06T10:00:00Z';

describe('time records', () => {
  // Days in UTC, as the records below are written (the academy's zone has tests of its own).
  const service = useIncidents({ ACADEMY_TIME_ZONE: 'UTC' }, { clock: clockFrom(PINNED) });
  const api = () => request(service().url);
  const clock = (kind: 'clock-in' | 'clock-out', auth: Record<string, string>, body: Record<string, unknown> = { source: 'App', deviceId: 'phone-1' }) =>
    api().post(`${base}/${kind}`).set(auth).send(body);
  const incidentsOf = (employeeId: number) =>
    sql<{ id: number; kind: string; severity: string; source: string | null; device_id: string | null; time_record_id: number | null; day: string | null; description: string }>(
      service(),
      'select id, kind, severity, source, device_id, time_record_id, day::text, description from incidents where employee_id = $1 order by id',
      [employeeId],
    );
  const recordsOf = (employeeId: number) =>
    sql<{ id: number; clock_out_at: Date | null; clock_out_source: string | null }>(service(), 'select id, clock_out_at, clock_out_source from time_records where employee_id = $1 order by id', [employeeId]);

  describe('POST /api/v2/timerecord/clock-in, /clock-out and GET /open', () => {
    test('clock-in opens a record with its source and device, /open shows it, clock-out closes it', async () => {
      const { employeeId, auth } = await seedEmployee(service());
      const opened = await clock('clock-in', auth);
      expect(opened.status).toBe(201);
      expect(ClockInResponse.parse(opened.body).data).toMatchObject({ employeeId, clockInSource: 'App', clockInDeviceId: 'phone-1', clockOutAt: null });

      const open = await api().get(`${base}/open`).set(auth);
      expect(open.status).toBe(200);
      expect(OpenRecordResponse.parse(open.body)).toEqual({ hasOpenRecord: true, record: expect.objectContaining({ id: opened.body.data.id }) });

      const closed = await clock('clock-out', auth, { source: 'Web' });
      expect(closed.status).toBe(200);
      expect(closed.body.data).toMatchObject({ id: opened.body.data.id, clockOutSource: 'Web', clockOutDeviceId: null });
      expect(closed.body.data.clockOutAt).not.toBeNull();
      expect((await api().get(`${base}/open`).set(auth)).body).toEqual({ hasOpenRecord: false, record: null });
      expect(await incidentsOf(employeeId)).toEqual([]);
    });

    test('clock-in while a record is open is refused (409) and makes one CLOCK_IN_WHILE_OPEN incident, however often retried', async () => {
      const { employeeId, userId, auth } = await seedEmployee(service());
      const first = await clock('clock-in', auth);
      const again = await clock('clock-in', auth, { source: 'Web', deviceId: 'kiosk-7' });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('TIME_RECORD_ALREADY_OPEN');
      expect(again.body.details.record.id).toBe(first.body.data.id);
      const retried = await clock('clock-in', auth, { source: 'Web', deviceId: 'kiosk-7' });
      expect(retried.status).toBe(409);
      expect(retried.body.details.incidentId).toBe(again.body.details.incidentId);

      const incidents = await incidentsOf(employeeId);
      expect(incidents).toEqual([
        expect.objectContaining({ id: again.body.details.incidentId, kind: 'CLOCK_IN_WHILE_OPEN', severity: 'medium', source: 'Web', device_id: 'kiosk-7', time_record_id: first.body.data.id }),
      ]);
      expect(incidents[0]!.description).toMatch(/refused: time record #\d+/);
      expect(await recordsOf(employeeId)).toHaveLength(1);
      const events = (await outboxEvents(service(), 'incident.created')).filter((event) => event.data.employeeId === employeeId);
      expect(events).toEqual([
        { type: 'incident.created', data: expect.objectContaining({ incidentId: incidents[0]!.id, employeeUserId: userId, status: 'open', change: 'created', byUserId: userId }) },
      ]);
    });

    test('20 concurrent clock-ins open one record and make at most one incident', async () => {
      const { employeeId, auth } = await seedEmployee(service());
      const answers = await Promise.all(Array.from({ length: 20 }, () => clock('clock-in', auth)));
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses.filter((status) => status === 201)).toHaveLength(1);
      expect(statuses.filter((status) => status === 409)).toHaveLength(19);
      expect(await recordsOf(employeeId)).toHaveLength(1);
      const incidents = await incidentsOf(employeeId);
      expect(incidents).toHaveLength(1);
      expect(incidents[0]!.kind).toBe('CLOCK_IN_WHILE_OPEN');
      expect((await outboxEvents(service(), 'incident.created')).filter((event) => event.data.employeeId === employeeId)).toHaveLength(1);
    });

    test('clock-out with no open record is refused (409) and makes one CLOCK_OUT_WITHOUT_OPEN incident for the day', async () => {
      const { employeeId, auth } = await seedEmployee(service());
      const first = await clock('clock-out', auth, { source: 'App', deviceId: 'phone-9' });
      expect(first.status).toBe(409);
      expect(first.body.code).toBe('NO_OPEN_TIME_RECORD');
      const second = await clock('clock-out', auth);
      expect(second.status).toBe(409);
      expect(second.body.details.incidentId).toBe(first.body.details.incidentId);
      const incidents = await incidentsOf(employeeId);
      expect(incidents).toEqual([expect.objectContaining({ kind: 'CLOCK_OUT_WITHOUT_OPEN', source: 'App', device_id: 'phone-9', time_record_id: null, day: PINNED.slice(0, 10) })]);
      expect(await recordsOf(employeeId)).toEqual([]);
    });

    test('clock-out twice: the second is a 409 ALREADY_CLOCKED_OUT that changes nothing and makes no incident', async () => {
      const { employeeId, auth } = await seedEmployee(service());
      await clock('clock-in', auth).expect(201);
      const out = await clock('clock-out', auth, { source: 'App' });
      const [before] = await recordsOf(employeeId);
      const twice = await clock('clock-out', auth, { source: 'Web' });
      expect(twice.status).toBe(409);
      expect(twice.body.code).toBe('ALREADY_CLOCKED_OUT');
      expect(twice.body.details.lastClockOutAt).toBe(out.body.data.clockOutAt);
      expect(await recordsOf(employeeId)).toEqual([before]);
      expect(await incidentsOf(employeeId)).toEqual([]);
    });

    test.each([
      ['a source other than App/Web', { source: 'Phone' }],
      ['no source', {}],
      ['an empty deviceId', { source: 'App', deviceId: '' }],
      ['a deviceId over 128 characters', { source: 'App', deviceId: 'x'.repeat(129) }],
      ['an unknown field', { source: 'App', at: '2026-01-01T00:00:00Z' }],
    ])('clock-in with %s is a 400 that writes nothing', async (_label, body) => {
      const { employeeId, auth } = await seedEmployee(service());
      const res = await clock('clock-in', auth, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(await recordsOf(employeeId)).toEqual([]);
    });

    test('a token without an employee is a 403 NOT_AN_EMPLOYEE; no token a 401', async () => {
      const res = await clock('clock-in', adminAuth);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('NOT_AN_EMPLOYEE');
      expect((await api().post(`${base}/clock-in`).send({ source: 'App' })).status).toBe(401);
    });

    test('a deactivated employee cannot clock in (403 EMPLOYEE_INACTIVE)', async () => {
      const { employeeId, auth } = await seedEmployee(service(), { active: false });
      const res = await clock('clock-in', auth);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('EMPLOYEE_INACTIVE');
      expect(await recordsOf(employeeId)).toEqual([]);
    });

    test('an employee the replica does not know yet may clock in (the token names them)', async () => {
      const auth = bearer({ role: 'user', sub: '777777', employeeId: 777_777 });
      expect((await clock('clock-in', auth)).status).toBe(201);
    });
  });

  describe('GET /api/v2/timerecord/history', () => {
    test('worked time per day; a night shift counts on both days; newest day first; paginated', async () => {
      const { employeeId, auth } = await seedEmployee(service());
      await insertRecord(service(), employeeId, '2026-01-05T08:00:00Z', '2026-01-05T12:00:00Z'); // 4h
      await insertRecord(service(), employeeId, '2026-01-05T13:00:00Z', '2026-01-05T16:30:00Z'); // 3h 30m
      await insertRecord(service(), employeeId, '2026-01-06T22:00:00Z', '2026-01-07T06:15:00Z'); // 2h + 6h 15m
      const res = await api().get(`${base}/history?from=2026-01-01&to=2026-01-31&limit=2`).set(auth);
      expect(res.status).toBe(200);
      const body = HistoryResponse.parse(res.body);
      expect(body.totalWorkedMinutes).toBe(4 * 60 + 210 + 120 + 375);
      expect(body.meta).toEqual({ totalItems: 3, totalPages: 2, currentPage: 1, pageSize: 2 });
      expect(body.data.map((day) => [day.date, day.workedMinutes, day.worked, day.records.length])).toEqual([
        ['2026-01-07', 375, '6h 15m', 1],
        ['2026-01-06', 120, '2h', 1],
      ]);
      const second = await api().get(`${base}/history?from=2026-01-01&to=2026-01-31&limit=2&page=2`).set(auth);
      expect(second.body.data.map((day: { date: string; worked: string }) => [day.date, day.worked])).toEqual([['2026-01-05', '7h 30m']]);
    });

    test('days follow the academy time zone', async () => {
      const madrid = await startIncidents({ ACADEMY_TIME_ZONE: 'Europe/Madrid' });
      try {
        const { employeeId, auth } = await seedEmployee(madrid);
        // 23:30–00:30 UTC is 00:30–01:30 in Madrid (winter, UTC+1): all on the 16th there.
        await insertRecord(madrid, employeeId, '2026-01-15T23:30:00Z', '2026-01-16T00:30:00Z');
        const res = await request(madrid.url).get(`${base}/history?from=2026-01-15&to=2026-01-16`).set(auth);
        expect(res.body.data.map((day: { date: string; workedMinutes: number }) => [day.date, day.workedMinutes])).toEqual([['2026-01-16', 60]]);
      } finally {
        await stopIncidents(madrid);
      }
    });

    test('a user reads only their own history (403); an admin names the employee', async () => {
      const { employeeId, auth } = await seedEmployee(service());
      const other = await seedEmployee(service());
      expect((await api().get(`${base}/history?employeeId=${other.employeeId}`).set(auth)).status).toBe(403);
      expect((await api().get(`${base}/history?employeeId=${employeeId}`).set(adminAuth)).status).toBe(200);
      expect((await api().get(`${base}/history`).set(adminAuth)).body.code).toBe('EMPLOYEE_ID_REQUIRED');
    });

    test.each([
      ['a bad date', 'from=2026-02-30'],
      ['year 0', 'from=0000-01-01&to=0000-01-31'],
      ['from after to', 'from=2026-02-01&to=2026-01-01'],
      ['more than 366 days', 'from=2024-01-01&to=2026-01-01'],
      ['page 0', 'page=0'],
      ['limit over 100', 'limit=101'],
      ['employeeId abc', 'employeeId=abc'],
    ])('%s is a 400', async (_label, query) => {
      const res = await api().get(`${base}/history?${query}`).set(adminAuth);
      expect(res.status).toBe(400);
    });
  });

  describe('GET /api/v2/timerecord/report.pdf', () => {
    test("the PDF parses and holds the month's records and totals", async () => {
      const { employeeId, auth } = await seedEmployee(service(), { name: 'Ada Lovelace' });
      await insertRecord(service(), employeeId, '2026-03-02T08:00:00Z', '2026-03-02T16:00:00Z'); // 8h
      await insertRecord(service(), employeeId, '2026-03-03T08:00:00Z', '2026-03-03T12:30:00Z'); // 4h 30m
      await insertRecord(service(), employeeId, '2026-03-31T22:00:00Z', '2026-04-01T02:00:00Z'); // 2h in March, 2h in April
      await insertRecord(service(), employeeId, '2026-02-27T08:00:00Z', '2026-02-27T09:00:00Z'); // another month
      const res = await api().get(`${base}/report.pdf?month=2026-03`).set(auth).buffer(true).parse((response, callback) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => callback(null, Buffer.concat(chunks)));
      });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      const parser = new PDFParse({ data: new Uint8Array(res.body as Buffer) });
      const { text } = await parser.getText();
      await parser.destroy();
      expect(text).toContain('Monthly time record: March 2026');
      expect(text).toContain('Ada Lovelace');
      expect(text).toContain('2026-03-02');
      expect(text).toContain('2026-03-31');
      expect(text).not.toContain('2026-02-27');
      expect(text).toContain('Total worked in March 2026: 14:30 over 3 days');
    });

    test.each([
      ['month 2026-13', 'month=2026-13'],
      ['no month', ''],
      ['month 2026-1', 'month=2026-1'],
      ['month 0000-01 (no year 0)', 'month=0000-01'],
    ])('%s is a 400', async (_label, query) => {
      const { auth } = await seedEmployee(service());
      const res = await api().get(`${base}/report.pdf?${query}`).set(auth);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    });

    test("another employee's report is a 403 for a user, a 200 for an admin", async () => {
      const { auth } = await seedEmployee(service());
      const other = await seedEmployee(service());
      expect((await api().get(`${base}/report.pdf?month=2026-03&employeeId=${other.employeeId}`).set(auth)).status).toBe(403);
      expect((await api().get(`${base}/report.pdf?month=2026-03&employeeId=${other.employeeId}`).set(adminAuth)).status).toBe(200);
    });

    test('an employee this service does not know is a 404 EMPLOYEE_NOT_FOUND, for the report and the history, not an empty answer', async () => {
      for (const path of [`${base}/report.pdf?month=2026-03&employeeId=999999`, `${base}/history?employeeId=999999`]) {
        const res = await api().get(path).set(adminAuth);
        expect([path, res.status, res.body.code, res.body.message]).toEqual([path, 404, 'EMPLOYEE_NOT_FOUND', 'Employee not found']);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
      }
      const known = await seedEmployee(service());
      expect((await api().get(`${base}/history?employeeId=${known.employeeId}`).set(adminAuth)).status).toBe(200);
      const withRecordOnly = 999_990;
      await insertRecord(service(), withRecordOnly, '2026-03-02T08:00:00Z', '2026-03-02T12:00:00Z');
      expect((await api().get(`${base}/report.pdf?month=2026-03&employeeId=${withRecordOnly}`).set(adminAuth)).status).toBe(200);
    });
  });
});
