// A teacher's classes of a day with their attendance state (GET /api/v2/attendance/classes, the
// console's Today) and the editing window on the sheet (issue 33).
import { describe, expect, test } from '@jest/globals';
import { adminToken, useAttendance } from './attendance-support.ts';

describe("a teacher's classes and the sheet's editing window", () => {
  // 12:00 in Madrid (CEST) on Monday 20 April 2026.
  const { clock, world: w } = useAttendance('2026-04-20T10:00:00Z');

  test('GET classes: today’s classes of the teacher by start, each taken, missing (ended without a sheet) or not yet, with its window', async () => {
    clock.set('2026-04-20T10:00:00Z');
    const place = await w.place();
    const students = await w.students(2, place);
    const taken = await w.event(place, '2026-04-20T07:00:00Z', '2026-04-20T08:00:00Z', students);
    const missing = await w.event(place, '2026-04-20T08:00:00Z', '2026-04-20T09:00:00Z', students);
    const later = await w.event(place, '2026-04-20T15:00:00Z', '2026-04-20T16:00:00Z', students);
    await w.event(place, '2026-04-21T08:00:00Z', '2026-04-21T09:00:00Z', students); // tomorrow
    await w.event(place, '2026-04-19T21:30:00Z', '2026-04-19T22:30:00Z', students); // 23:30 local on the 19th: yesterday's
    const other = await w.place();
    await w.event(other, '2026-04-20T09:00:00Z', '2026-04-20T10:00:00Z', []); // another teacher's
    clock.set('2026-04-20T09:30:00Z');
    expect((await w.take(taken, { marks: [], markRest: 'P' }, place.token)).status).toBe(200);
    clock.set('2026-04-20T10:00:00Z');

    const res = await w.api().get('/api/v2/attendance/classes').set(place.token);
    expect(res.status).toBe(200);
    expect(res.body.from).toBe('2026-04-20');
    expect(res.body.to).toBe('2026-04-20');
    expect(res.body.data.map((row: { eventId: number; state: string }) => [row.eventId, row.state])).toEqual([
      [taken, 'taken'],
      [missing, 'missing'],
      [later, 'notYet'],
    ]);
    expect(res.body.data[0]).toEqual({
      eventId: taken,
      employeeId: place.employeeId,
      subjectId: place.subjectId,
      subjectName: expect.any(String),
      centerId: place.centerId,
      centerName: expect.any(String),
      startsAt: '2026-04-20T07:00:00.000Z',
      endsAt: '2026-04-20T08:00:00.000Z',
      studentCount: 2,
      state: 'taken',
      takenAt: '2026-04-20T09:30:00.000Z',
      opensAt: '2026-04-20T06:45:00.000Z',
      // The end of the academy day 7 days after the class's: midnight of 28 April in Madrid.
      locksAt: '2026-04-27T22:00:00.000Z',
    });
    expect(res.body.data[1].takenAt).toBeNull();
  });

  test('GET classes: an admin reads any teacher’s or all; a teacher only their own; a bad range is a 400', async () => {
    clock.set('2026-04-20T10:00:00Z');
    const place = await w.place();
    const other = await w.place();
    const mine = await w.event(place, '2026-04-22T08:00:00Z', '2026-04-22T09:00:00Z', []);
    const theirs = await w.event(other, '2026-04-22T09:00:00Z', '2026-04-22T10:00:00Z', []);
    const byAdmin = await w.api().get(`/api/v2/attendance/classes?employeeId=${other.employeeId}&from=2026-04-22&to=2026-04-22`).set(adminToken);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.data.map((row: { eventId: number }) => row.eventId)).toEqual([theirs]);
    const all = await w.api().get('/api/v2/attendance/classes?from=2026-04-22&to=2026-04-22').set(adminToken);
    expect(all.body.data.map((row: { eventId: number }) => row.eventId)).toEqual(expect.arrayContaining([mine, theirs]));
    expect(all.body.data.find((row: { eventId: number }) => row.eventId === mine).state).toBe('notYet');

    const refused = await w.api().get(`/api/v2/attendance/classes?employeeId=${other.employeeId}`).set(place.token);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('NOT_OWN_EMPLOYEE_ID');
    const own = await w.api().get(`/api/v2/attendance/classes?employeeId=${place.employeeId}&from=2026-04-22&to=2026-04-22`).set(place.token);
    expect(own.body.data.map((row: { eventId: number }) => row.eventId)).toEqual([mine]);
    const backwards = await w.api().get('/api/v2/attendance/classes?from=2026-04-22&to=2026-04-21').set(place.token);
    expect([backwards.status, backwards.body.code]).toEqual([400, 'INVALID_RANGE']);
    const unknown = await w.api().get('/api/v2/attendance/classes?day=2026-04-22').set(place.token);
    expect([unknown.status, unknown.body.code]).toEqual([400, 'VALIDATION_ERROR']);
  });

  test("the sheet tells its window: not yet open, editable by its teacher until it locks, then read-only for the teacher and still editable by an admin", async () => {
    clock.set('2026-04-20T06:00:00Z');
    const place = await w.place();
    const students = await w.students(1, place);
    const eventId = await w.event(place, '2026-04-20T07:00:00Z', '2026-04-20T08:00:00Z', students);
    const read = async (token: Record<string, string>) => (await w.api().get(`/api/v2/attendance/events/${eventId}`).set(token)).body.window;
    const window = { opensAt: '2026-04-20T06:45:00.000Z', locksAt: '2026-04-27T22:00:00.000Z' };

    expect(await read(place.token)).toEqual({ ...window, editable: false });
    expect(await read(adminToken)).toEqual({ ...window, editable: false });
    clock.set('2026-04-20T06:45:00Z');
    expect(await read(place.token)).toEqual({ ...window, editable: true });
    const saved = await w.take(eventId, { marks: [{ studentId: students[0], status: 'P' }] }, place.token);
    expect(saved.body.window).toEqual({ ...window, editable: true });
    clock.set('2026-04-27T21:59:59Z');
    expect((await read(place.token)).editable).toBe(true);
    clock.set('2026-04-27T22:00:00Z');
    expect(await read(place.token)).toEqual({ ...window, editable: false });
    expect(await read(adminToken)).toEqual({ ...window, editable: true });
    // The window agrees with the save: the teacher's is refused, the admin's answers the window it used.
    expect((await w.take(eventId, { marks: [{ studentId: students[0], status: 'A' }] }, place.token)).body.code).toBe('ATTENDANCE_LOCKED');
    expect((await w.take(eventId, { marks: [{ studentId: students[0], status: 'A' }] }, adminToken)).body.window).toEqual({ ...window, editable: true });
  });
});
