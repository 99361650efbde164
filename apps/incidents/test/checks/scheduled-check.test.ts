import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { fixedClock } from '@academy/kit';
import { runScheduledCheck } from '../../src/checks/run-scheduled-check.ts';
import { isoSql } from '../../src/shared/db.ts';
import { adminAuth, insertRecord, outboxEvents, seedEmployee, sql, startIncidents, stopIncidents, useIncidents } from '../support.ts';

/**
 * The service's "now": Monday 2026-01-05 08:00 UTC, before that day's absence deadline (09:00 + 30 min) and after a
 * Sunday (no working day), so a check at this instant finds no absence whatever the hour of the run.
 */
const NOW = Date.parse('2026-01-05T08:00:00Z');
const hoursAgo = (hours: number, from = NOW) => new Date(from - hours * 3600_000).toISOString();

describe('the scheduled check', () => {
  // Absences by the every-working-day rule (the timetable rule has test/checks/), checked on that Monday in UTC: deadline 09:00 + 30 min grace.
  const service = useIncidents(
    { ABSENCE_RULE: 'every-working-day', ACADEMY_TIME_ZONE: 'UTC', ABSENCE_DEADLINE: '09:00', ABSENCE_GRACE_MINUTES: 30, OPEN_RECORD_LIMIT_HOURS: 12, PROPOSED_SHIFT_HOURS: 8 },
    { clock: fixedClock(new Date(NOW)) },
  );
  const check = (now = service().deps.clock.now()) => runScheduledCheck(service().deps, { now });
  const incidentsOf = (employeeId: number, kind: string) =>
    sql<{ id: number; time_record_id: number | null; day: string | null; proposed_end_at: string | null; severity: string; source: string | null; description: string }>(
      service(),
      `select id, time_record_id, day::text, ${isoSql('proposed_end_at')} as proposed_end_at, severity, source, description from incidents where employee_id = $1 and kind = $2 order by id`,
      [employeeId, kind],
    );

  describe('records open past the limit', () => {
    test('a record open 13 h gets one RECORD_OPEN_TOO_LONG proposing clock-in + 8 h; the record is not changed; a second run adds nothing', async () => {
      const { employeeId, userId } = await seedEmployee(service());
      const clockInAt = hoursAgo(13);
      const recordId = await insertRecord(service(), employeeId, clockInAt, null);
      await check();
      await check();
      const incidents = await incidentsOf(employeeId, 'RECORD_OPEN_TOO_LONG');
      expect(incidents).toHaveLength(1);
      expect(incidents[0]).toMatchObject({ time_record_id: recordId, severity: 'high', source: null });
      expect(incidents[0]!.proposed_end_at).toBe(new Date(Date.parse(clockInAt) + 8 * 3600_000).toISOString());
      expect(incidents[0]!.description).toContain('is not changed');
      const [record] = await sql<{ clock_out_at: Date | null }>(service(), 'select clock_out_at from time_records where id = $1', [recordId]);
      expect(record!.clock_out_at).toBeNull();
      const events = (await outboxEvents(service(), 'incident.created')).filter((event) => event.data.employeeId === employeeId);
      expect(events).toEqual([{ type: 'incident.created', data: expect.objectContaining({ kind: 'RECORD_OPEN_TOO_LONG', employeeUserId: userId, byUserId: null }) }]);
    });

    test('a record open for three days (a multi-day gap) is flagged once; its proposal never lies in the future', async () => {
      const { employeeId } = await seedEmployee(service());
      await insertRecord(service(), employeeId, hoursAgo(72), null);
      for (let i = 0; i < 3; i++) await check(new Date(NOW + i * 24 * 3600_000));
      const incidents = await incidentsOf(employeeId, 'RECORD_OPEN_TOO_LONG');
      expect(incidents).toHaveLength(1);
      expect(Date.parse(incidents[0]!.proposed_end_at!)).toBeLessThanOrEqual(NOW);
    });

    test('a record open 11 h, and a closed night shift across midnight, are not flagged', async () => {
      const { employeeId } = await seedEmployee(service());
      await insertRecord(service(), employeeId, hoursAgo(11), null);
      const other = await seedEmployee(service());
      await insertRecord(service(), other.employeeId, '2026-01-04T22:00:00Z', '2026-01-05T06:00:00Z');
      await check();
      expect(await incidentsOf(employeeId, 'RECORD_OPEN_TOO_LONG')).toEqual([]);
      expect(await incidentsOf(other.employeeId, 'RECORD_OPEN_TOO_LONG')).toEqual([]);
    });

    test('the employee sees it in /my right after the check (the check invalidates their list)', async () => {
      const { employeeId, auth } = await seedEmployee(service());
      await request(service().url).get('/api/v2/incident/my').set(auth).expect(200);
      await insertRecord(service(), employeeId, hoursAgo(20), null);
      await check();
      const my = await request(service().url).get('/api/v2/incident/my').set(auth);
      expect(my.body.data.map((item: { kind: string }) => item.kind)).toEqual(['RECORD_OPEN_TOO_LONG']);
    });
  });

  describe('absences, every working day (ABSENCE_RULE=every-working-day)', () => {
    const monday = (time: string) => new Date(`2026-01-05T${time}:00Z`);

    test('no clock-in on a working day by the deadline + grace: one ABSENCE for the employee-day; a later clock-in still works', async () => {
      const { employeeId, auth } = await seedEmployee(service());
      const present = await seedEmployee(service());
      await insertRecord(service(), present.employeeId, '2026-01-05T08:50:00Z', '2026-01-05T14:00:00Z');
      const nightShift = await seedEmployee(service());
      await insertRecord(service(), nightShift.employeeId, '2026-01-04T22:00:00Z', null);
      // Clocked in after the deadline + grace: absent by the rule, whenever the check runs.
      const lateComer = await seedEmployee(service());
      await insertRecord(service(), lateComer.employeeId, '2026-01-05T09:45:00Z', '2026-01-05T14:00:00Z');

      await check(monday('09:20'));
      expect(await incidentsOf(employeeId, 'ABSENCE')).toEqual([]);
      await check(monday('09:31'));
      await check(monday('12:00'));
      expect(await incidentsOf(employeeId, 'ABSENCE')).toEqual([expect.objectContaining({ day: '2026-01-05', severity: 'high', time_record_id: null })]);
      expect(await incidentsOf(present.employeeId, 'ABSENCE')).toEqual([]);
      expect(await incidentsOf(nightShift.employeeId, 'ABSENCE')).toEqual([]);
      expect((await incidentsOf(lateComer.employeeId, 'ABSENCE')).map((incident) => incident.day)).toEqual(['2026-01-05']);

      const late = await request(service().url).post('/api/v2/timerecord/clock-in').set(auth).send({ source: 'App' });
      expect(late.status).toBe(201);
    });

    test('weekends, deactivated and deleted employees get none', async () => {
      const { employeeId } = await seedEmployee(service());
      const inactive = await seedEmployee(service(), { active: false });
      const deleted = await seedEmployee(service());
      await sql(service(), 'update employees set deleted = true, active = false where id = $1', [deleted.employeeId]);
      // Each run looks at today and yesterday: Sunday covers the weekend, Monday adds Monday only.
      await check(new Date('2026-01-18T12:00:00Z'));
      expect(await incidentsOf(employeeId, 'ABSENCE')).toEqual([]);
      await check(new Date('2026-01-19T12:00:00Z'));
      expect((await incidentsOf(employeeId, 'ABSENCE')).map((incident) => incident.day)).toEqual(['2026-01-19']);
      expect(await incidentsOf(inactive.employeeId, 'ABSENCE')).toEqual([]);
      expect(await incidentsOf(deleted.employeeId, 'ABSENCE')).toEqual([]);
    });

    test('never for a day before the employee was known: first known today (after yesterday’s deadline), no absence for yesterday; known after today’s deadline, none today either', async () => {
      const knownThisMorning = await seedEmployee(service(), { firstSeenAt: '2026-01-28T07:00:00Z' });
      const knownAtNoon = await seedEmployee(service(), { firstSeenAt: '2026-01-28T12:00:00Z' });
      await check(new Date('2026-01-28T13:00:00Z')); // Wednesday; Tuesday is looked at too
      expect((await incidentsOf(knownThisMorning.employeeId, 'ABSENCE')).map((incident) => incident.day)).toEqual(['2026-01-28']);
      expect(await incidentsOf(knownAtNoon.employeeId, 'ABSENCE')).toEqual([]);
    });

    test('an absence an admin deleted is not created again by later checks', async () => {
      const { employeeId } = await seedEmployee(service());
      await check(new Date('2026-01-26T12:00:00Z')); // a Monday (Sunday before it is no working day)
      const [absence] = await incidentsOf(employeeId, 'ABSENCE');
      expect(absence!.day).toBe('2026-01-26');
      await request(service().url).delete(`/api/v2/incident/${absence!.id}`).set(adminAuth).expect(200);
      await check(new Date('2026-01-26T15:00:00Z'));
      expect(await incidentsOf(employeeId, 'ABSENCE')).toHaveLength(1);
    });
  });

  test('two instances running the check at once, repeatedly, make one incident and one event per key', async () => {
    const second = await startIncidents({ ...service().ctx.config, PORT: 0 });
    try {
      const employees = await Promise.all(Array.from({ length: 10 }, () => seedEmployee(service())));
      for (const { employeeId } of employees) await insertRecord(service(), employeeId, '2026-01-14T06:00:00Z', null);
      const now = new Date('2026-01-15T12:00:00Z');
      for (let round = 0; round < 3; round++) {
        await Promise.all([runScheduledCheck(service().deps, { now }), runScheduledCheck(second.deps, { now })]);
      }
      const ids = employees.map((employee) => employee.employeeId);
      const counts = await sql<{ kind: string; day: string | null; n: number }>(
        service(),
        `select kind, day::text, count(*)::int as n from incidents where employee_id = any($1::int[]) group by employee_id, kind, day, time_record_id`,
        [ids],
      );
      expect(counts.every((row) => row.n === 1)).toBe(true);
      // Each employee: the record open since the 14th is flagged; no absence (the open record touches both days).
      expect(counts.filter((row) => row.kind === 'RECORD_OPEN_TOO_LONG')).toHaveLength(10);
      const events = (await outboxEvents(service(), 'incident.created')).filter((event) => ids.includes(event.data.employeeId as number));
      expect(events).toHaveLength(counts.length);
      expect(new Set(events.map((event) => event.data.incidentId)).size).toBe(events.length);
    } finally {
      await stopIncidents(second, { keepDatabase: true });
    }
  });
});
