import { describe, expect, test } from '@jest/globals';
import { createEnvelope } from '@academy/contracts';
import { fixedClock } from '@academy/kit';
import { waitFor } from '@academy/testing';
import { runScheduledCheck } from '../../src/checks/run-scheduled-check.ts';
import { insertClass, insertRecord, outboxEvents, seedEmployee, sql, useIncidents } from '../support.ts';

const plus = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString();

/**
 * The default rule (ABSENCE_RULE=timetable) in the default academy time zone (Europe/Madrid), grace
 * 30 min. Each test passes the check its "now"; the service's own clock is pinned too.
 */
describe('the scheduled check with the timetable', () => {
  const service = useIncidents({ ABSENCE_GRACE_MINUTES: 30 }, { clock: fixedClock(new Date('2026-01-13T12:00:00Z')) });
  const check = (now: string) => runScheduledCheck(service().deps, { now: new Date(now) });
  const incidentsOf = (employeeId: number, kind: string) =>
    sql<{ day: string; severity: string; source: string | null; description: string }>(
      service(),
      `select day::text, severity, source, description from incidents where employee_id = $1 and kind = $2 order by day, id`,
      [employeeId, kind],
    );
  const days = async (employeeId: number, kind = 'ABSENCE') => (await incidentsOf(employeeId, kind)).map((incident) => incident.day);
  /** A one-hour class from `startsAt`. */
  const lesson = (employeeId: number | null, startsAt: string, options: { knownSince?: string } = {}) => insertClass(service(), employeeId, startsAt, plus(startsAt, 60), options);

  describe('absence', () => {
    test('a class at 09:00 in Madrid (08:00 UTC in winter) and no clock-in: nothing at 09:29, one ABSENCE for the day at 09:31, no second one later', async () => {
      const { employeeId, userId } = await seedEmployee(service());
      await lesson(employeeId, '2026-01-13T08:00:00Z');
      await check('2026-01-13T08:29:00Z');
      expect(await days(employeeId)).toEqual([]);
      await check('2026-01-13T08:31:00Z');
      await check('2026-01-13T15:00:00Z');
      expect(await incidentsOf(employeeId, 'ABSENCE')).toEqual([
        { day: '2026-01-13', severity: 'high', source: null, description: 'No clock-in on 2026-01-13 by the first class at 09:00 (Europe/Madrid) plus 30 min of grace.' },
      ]);
      const events = (await outboxEvents(service(), 'incident.created')).filter((event) => event.data.employeeId === employeeId);
      expect(events).toEqual([{ type: 'incident.created', data: expect.objectContaining({ kind: 'ABSENCE', employeeUserId: userId, byUserId: null }) }]);
    });

    test('clocked in by the start plus grace: not absent; a part-time teacher with no class that day: not absent, but absent on the day of their class', async () => {
      const present = await seedEmployee(service());
      await lesson(present.employeeId, '2026-01-14T08:00:00Z');
      await insertRecord(service(), present.employeeId, '2026-01-14T08:25:00Z', '2026-01-14T12:00:00Z');
      const partTime = await seedEmployee(service());
      await lesson(partTime.employeeId, '2026-01-16T15:00:00Z'); // Friday only
      await check('2026-01-14T18:00:00Z');
      await check('2026-01-15T18:00:00Z');
      expect(await days(present.employeeId)).toEqual([]);
      expect(await days(partTime.employeeId)).toEqual([]);
      await check('2026-01-16T18:00:00Z');
      expect(await days(partTime.employeeId)).toEqual(['2026-01-16']);
    });

    test('the first class of the day sets the time (a later class does not move it); a deleted class and a class without a teacher count for no one', async () => {
      const { employeeId } = await seedEmployee(service());
      await lesson(employeeId, '2026-01-19T15:00:00Z');
      await lesson(employeeId, '2026-01-19T08:00:00Z');
      // Arrived at 11:00 Madrid: in time for the 16:00 class, not for the 09:00 one.
      await insertRecord(service(), employeeId, '2026-01-19T10:00:00Z', '2026-01-19T17:00:00Z');
      const cancelled = await seedEmployee(service());
      const cancelledClass = await lesson(cancelled.employeeId, '2026-01-19T08:00:00Z');
      await sql(service(), 'update calendar_events set deleted = true where id = $1', [cancelledClass]);
      await lesson(null, '2026-01-19T08:00:00Z');
      await check('2026-01-19T12:00:00Z');
      expect(await incidentsOf(employeeId, 'ABSENCE')).toEqual([expect.objectContaining({ day: '2026-01-19', description: expect.stringContaining('first class at 09:00') })]);
      expect(await days(cancelled.employeeId)).toEqual([]);
    });

    test('an employee first known today gets no absence for yesterday’s class, and one for today’s', async () => {
      const { employeeId } = await seedEmployee(service(), { firstSeenAt: '2026-01-21T06:00:00Z' });
      await lesson(employeeId, '2026-01-20T08:00:00Z');
      await lesson(employeeId, '2026-01-21T08:00:00Z');
      await check('2026-01-21T12:00:00Z');
      expect(await days(employeeId)).toEqual(['2026-01-21']);
    });

    test('known to the service only after the class began (the employee, or the class entered or moved late): no absence', async () => {
      const lateHire = await seedEmployee(service(), { firstSeenAt: '2026-01-22T08:10:00Z' });
      await lesson(lateHire.employeeId, '2026-01-22T08:00:00Z');
      const lateClass = await seedEmployee(service());
      await lesson(lateClass.employeeId, '2026-01-22T08:00:00Z', { knownSince: '2026-01-22T08:05:00Z' });
      await check('2026-01-22T12:00:00Z');
      expect(await days(lateHire.employeeId)).toEqual([]);
      expect(await days(lateClass.employeeId)).toEqual([]);
    });

    test('deactivated and deleted teachers get none', async () => {
      const inactive = await seedEmployee(service(), { active: false });
      const deleted = await seedEmployee(service());
      await sql(service(), 'update employees set deleted = true, active = false where id = $1', [deleted.employeeId]);
      for (const { employeeId } of [inactive, deleted]) await lesson(employeeId, '2026-01-23T08:00:00Z');
      await check('2026-01-23T12:00:00Z');
      expect(await days(inactive.employeeId)).toEqual([]);
      expect(await days(deleted.employeeId)).toEqual([]);
    });
  });

  describe('days and times in Europe/Madrid across DST and midnight', () => {
    test('spring change (Sunday 2026-03-29, UTC+1 → UTC+2): a 09:00 class is 07:00 UTC; a 00:30 class is on the 29th though it is the 28th in UTC', async () => {
      const morning = await seedEmployee(service());
      await lesson(morning.employeeId, '2026-03-29T07:00:00Z');
      const night = await seedEmployee(service());
      await lesson(night.employeeId, '2026-03-28T23:30:00Z');
      await check('2026-03-29T00:05:00Z'); // 01:05 in Madrid (still UTC+1): the night class's 01:00 has passed
      expect(await days(night.employeeId)).toEqual(['2026-03-29']);
      await check('2026-03-29T07:29:00Z');
      expect(await days(morning.employeeId)).toEqual([]);
      await check('2026-03-29T07:31:00Z');
      expect(await incidentsOf(morning.employeeId, 'ABSENCE')).toEqual([expect.objectContaining({ day: '2026-03-29', description: expect.stringContaining('at 09:00 (Europe/Madrid)') })]);
    });

    test('autumn change (Sunday 2026-10-25, UTC+2 → UTC+1): a 09:00 class is 08:00 UTC, not 07:00; a 00:30 class is on the 25th', async () => {
      const morning = await seedEmployee(service());
      await lesson(morning.employeeId, '2026-10-25T08:00:00Z');
      const night = await seedEmployee(service());
      await lesson(night.employeeId, '2026-10-24T22:30:00Z');
      await check('2026-10-25T07:31:00Z');
      expect(await days(morning.employeeId)).toEqual([]);
      expect(await days(night.employeeId)).toEqual(['2026-10-25']);
      await check('2026-10-25T08:31:00Z');
      expect(await days(morning.employeeId)).toEqual(['2026-10-25']);
    });

    test('a class from 23:30 to 01:30: absent on the day it starts, judged at 00:00 next day; one who clocked in at 23:20 is neither absent nor late', async () => {
      const absent = await seedEmployee(service());
      const present = await seedEmployee(service());
      for (const { employeeId } of [absent, present]) await insertClass(service(), employeeId, '2026-02-10T22:30:00Z', '2026-02-11T00:30:00Z');
      await insertRecord(service(), present.employeeId, '2026-02-10T22:20:00Z', '2026-02-11T00:40:00Z');
      await check('2026-02-10T22:59:00Z'); // 23:59 in Madrid
      expect(await days(absent.employeeId)).toEqual([]);
      await check('2026-02-11T10:00:00Z'); // the next day: yesterday is still looked at
      expect(await days(absent.employeeId)).toEqual(['2026-02-10']);
      expect(await days(present.employeeId)).toEqual([]);
      expect(await days(present.employeeId, 'LATE_CLOCK_IN')).toEqual([]);
    });
  });

  describe('late clock-in', () => {
    test('a first clock-in at 09:45 for a 09:00 class: one LATE_CLOCK_IN (low) with the clock-in’s source, once however often the check runs, next to the ABSENCE of 09:30', async () => {
      const { employeeId } = await seedEmployee(service());
      await lesson(employeeId, '2026-02-02T08:00:00Z');
      await insertRecord(service(), employeeId, '2026-02-02T08:45:00Z', '2026-02-02T12:00:00Z');
      await check('2026-02-02T09:00:00Z');
      await check('2026-02-02T09:30:00Z');
      expect(await incidentsOf(employeeId, 'LATE_CLOCK_IN')).toEqual([
        {
          day: '2026-02-02',
          severity: 'low',
          source: 'Web',
          description: 'First clock-in on 2026-02-02 at 09:45, after the first class at 09:00 (Europe/Madrid) plus 30 min of grace.',
        },
      ]);
      expect(await days(employeeId)).toEqual(['2026-02-02']);
      const kinds = (await outboxEvents(service(), 'incident.created')).filter((event) => event.data.employeeId === employeeId).map((event) => event.data.kind);
      expect(kinds.sort()).toEqual(['ABSENCE', 'LATE_CLOCK_IN']);
    });

    test('within the grace, before the class, or an earlier clock-in that day: not late; no class that day: not late', async () => {
      const withinGrace = await seedEmployee(service());
      const earlierThatDay = await seedEmployee(service());
      const noClass = await seedEmployee(service());
      for (const { employeeId } of [withinGrace, earlierThatDay]) await lesson(employeeId, '2026-02-03T09:00:00Z');
      await insertRecord(service(), withinGrace.employeeId, '2026-02-03T09:29:00Z', null);
      await insertRecord(service(), earlierThatDay.employeeId, '2026-02-03T06:00:00Z', '2026-02-03T07:00:00Z');
      await insertRecord(service(), earlierThatDay.employeeId, '2026-02-03T11:00:00Z', null);
      await insertRecord(service(), noClass.employeeId, '2026-02-03T11:00:00Z', null);
      await check('2026-02-03T12:00:00Z');
      for (const { employeeId } of [withinGrace, earlierThatDay, noClass]) expect(await days(employeeId, 'LATE_CLOCK_IN')).toEqual([]);
    });

    test('one per employee-day: a unique key, so two instances at once record it once', async () => {
      const { employeeId } = await seedEmployee(service());
      await lesson(employeeId, '2026-02-04T08:00:00Z');
      await insertRecord(service(), employeeId, '2026-02-04T09:00:00Z', null);
      await Promise.all(Array.from({ length: 4 }, () => check('2026-02-04T10:00:00Z')));
      expect(await days(employeeId, 'LATE_CLOCK_IN')).toEqual(['2026-02-04']);
      await expect(
        sql(service(), `insert into incidents (employee_id, kind, severity, status, description, day, created_at, updated_at) values ($1, 'LATE_CLOCK_IN', 'low', 'open', 'again', '2026-02-04', now(), now())`, [employeeId]),
      ).rejects.toThrow(/incidents_employee_day_kind_unique/);
    });
  });

  test('the timetable arrives through incidents.replicas: employee.upserted and calendar-event.created from academic make the absence', async () => {
    const employeeId = 990_001;
    const occurredAt = new Date('2026-02-05T07:00:00Z');
    const events = [
      createEnvelope('employee.upserted', { id: employeeId, userId: 991_001, name: 'Ana Ruiz', email: null, active: true, taxIdDigest: null, payrollCode: null }, { source: 'academic', occurredAt }),
      createEnvelope(
        'calendar-event.created',
        { id: 990_001, subjectId: 1, centerId: 1, employeeId, startsAt: '2026-02-05T08:00:00.000Z', endsAt: '2026-02-05T09:00:00.000Z' },
        { source: 'academic', occurredAt },
      ),
    ];
    await service().ctx.broker.publish(events);
    await waitFor('the timetable replica', async () => (await sql(service(), 'select 1 from calendar_events where id = 990001')).length > 0, 10_000, 50);
    await waitFor('the first sighting', async () => (await sql(service(), 'select 1 from employee_first_seen where employee_id = $1', [employeeId])).length > 0, 10_000, 50);
    await check('2026-02-05T12:00:00Z');
    expect(await days(employeeId)).toEqual(['2026-02-05']);
  });
});
