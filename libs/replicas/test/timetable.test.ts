import { describe, expect, test } from '@jest/globals';
import { envelope, useReplicaConsumer } from './support.ts';

describe('subscribeReplicas with the timetable: classes and when each employee was first heard of', () => {
  const { rows, publish } = useReplicaConsumer('timetable-test', { timetable: true });
  const classRow = (id: number) =>
    rows(
      `select employee_id as "employeeId", to_char(starts_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI') as "startsAt", deleted,
        to_char(known_since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI') as "knownSince" from calendar_events where id = ?`,
      [id],
    );
  const lesson = (id: number, employeeId: number | null, startsAt: string) => ({ id, subjectId: 3, centerId: 4, employeeId, startsAt, endsAt: new Date(Date.parse(startsAt) + 3600_000).toISOString() });

  test('created, updated and deleted keep the class (a tombstone at the end); an older event never undoes a newer one', async () => {
    await publish(envelope('calendar-event.created', lesson(1, 7, '2026-03-02T08:00:00.000Z'), '2026-02-01T10:00:00Z'));
    expect(await classRow(1)).toEqual([{ employeeId: 7, startsAt: '2026-03-02T08:00', deleted: false, knownSince: '2026-02-01T10:00' }]);

    await publish(envelope('calendar-event.updated', lesson(1, 8, '2026-03-02T09:00:00.000Z'), '2026-02-03T10:00:00Z'));
    // Late: an update from before the last one, then a deletion from before it.
    await publish(envelope('calendar-event.updated', lesson(1, 9, '2026-03-02T07:00:00.000Z'), '2026-02-02T10:00:00Z'));
    await publish(envelope('calendar-event.deleted', { id: 1 }, '2026-02-02T11:00:00Z'));
    expect(await classRow(1)).toEqual([{ employeeId: 8, startsAt: '2026-03-02T09:00', deleted: false, knownSince: '2026-02-03T10:00' }]);

    await publish(envelope('calendar-event.deleted', { id: 1 }, '2026-02-04T10:00:00Z'));
    await publish(envelope('calendar-event.created', lesson(1, 7, '2026-03-02T08:00:00.000Z'), '2026-02-01T10:00:00Z'));
    expect(await classRow(1)).toEqual([expect.objectContaining({ employeeId: 8, deleted: true })]);
  });

  test('known_since moves only when the teacher or the start changes, not for another room or end', async () => {
    await publish(envelope('calendar-event.created', lesson(2, 7, '2026-03-03T08:00:00.000Z'), '2026-02-01T10:00:00Z'));
    await publish(envelope('calendar-event.updated', { ...lesson(2, 7, '2026-03-03T08:00:00.000Z'), centerId: 5, endsAt: '2026-03-03T10:00:00.000Z' }, '2026-03-03T08:30:00Z'));
    expect(await classRow(2)).toEqual([expect.objectContaining({ knownSince: '2026-02-01T10:00' })]);
    await publish(envelope('calendar-event.updated', lesson(2, 8, '2026-03-03T08:00:00.000Z'), '2026-03-03T08:40:00Z'));
    expect(await classRow(2)).toEqual([expect.objectContaining({ employeeId: 8, knownSince: '2026-03-03T08:40' })]);
  });

  test('a deletion of a class never seen leaves a tombstone', async () => {
    await publish(envelope('calendar-event.deleted', { id: 3 }, '2026-02-04T10:00:00Z'));
    expect(await classRow(3)).toEqual([{ employeeId: null, startsAt: null, deleted: true, knownSince: null }]);
  });

  test('an employee is first seen at their earliest employee.upserted, whatever the order the events arrive in; the employees replica is kept as usual', async () => {
    const ana = { id: 21, userId: 210, name: 'Ana', email: null, active: true, taxIdDigest: null, payrollCode: null };
    await publish(envelope('employee.upserted', ana, '2026-02-10T10:00:00Z'));
    await publish(envelope('employee.upserted', { ...ana, name: 'Ana Old' }, '2026-02-09T10:00:00Z'));
    await publish(envelope('employee.upserted', { ...ana, name: 'Ana Pérez' }, '2026-02-11T10:00:00Z'));
    expect(await rows(`select to_char(first_seen_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI') as at from employee_first_seen where employee_id = 21`)).toEqual([
      { at: '2026-02-09T10:00' },
    ]);
    expect(await rows('select name from employees where id = 21')).toEqual([{ name: 'Ana Pérez' }]);
  });
});
