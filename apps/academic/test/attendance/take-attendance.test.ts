import { describe, expect, test } from '@jest/globals';
import { bearer } from '@academy/testing';
import { ADMIN_USER_ID, adminToken, useAttendance } from './attendance-support.ts';

// Europe/Madrid: CET (+01:00) in winter, CEST (+02:00) from 2026-03-29 01:00Z to 2026-10-25 01:00Z.
describe('PUT /api/v2/attendance/events/:eventId', () => {
  const { clock, world: w } = useAttendance('2026-03-10T10:30:00Z');

  /** A class of 10:00–11:00Z on 2026-03-10 with three students; the clock in the middle of it. */
  async function classNow() {
    clock.set('2026-03-10T10:30:00Z');
    const place = await w.place();
    const students = await w.students(3, place);
    const eventId = await w.event(place, '2026-03-10T10:00:00Z', '2026-03-10T11:00:00Z', students);
    return { place, students, eventId };
  }

  test('the teacher takes it: the sheet answers the marks and the unmarked, attendance.recorded and the history keep what changed', async () => {
    const { place, students, eventId } = await classNow();
    const res = await w.take(eventId, { marks: [{ studentId: students[0], status: 'P' }, { studentId: students[1], status: 'L', minutesLate: 10, remark: 'bus' }] }, place.token);
    expect(res.status).toBe(200);
    expect(res.body.changed).toBe(2);
    expect(res.body.taken).toEqual({ byUserId: place.userId, at: '2026-03-10T10:30:00.000Z' });
    expect(res.body.unmarked).toEqual([students[2]]);
    expect(res.body.students.find((s: { studentId: number }) => s.studentId === students[1])).toMatchObject({ status: 'L', minutesLate: 10, remark: 'bus' });
    const events = await w.outbox<{ eventId: number; byUserId: number; changes: unknown[] }>('attendance.recorded', `(envelope->'data'->>'eventId')::int = ${eventId}`);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ eventId, byUserId: place.userId, employeeId: place.employeeId });
    expect(events[0]!.changes).toEqual([
      { studentId: students[0], from: null, to: 'P', minutesLate: null, remark: null },
      { studentId: students[1], from: null, to: 'L', minutesLate: 10, remark: 'bus' },
    ]);
    expect(await w.history(eventId)).toHaveLength(2);
  });

  test('markRest marks only the still-unmarked students and never overwrites a mark', async () => {
    const { place, students, eventId } = await classNow();
    await w.take(eventId, { marks: [{ studentId: students[0], status: 'A' }] }, place.token);
    const res = await w.take(eventId, { marks: [{ studentId: students[1], status: 'L', minutesLate: 5 }], markRest: 'P' }, place.token);
    expect(res.status).toBe(200);
    expect(res.body.changed).toBe(2);
    expect((await w.marks(eventId)).map((m) => [m.studentId, m.status])).toEqual([
      [students[0], 'A'],
      [students[1], 'L'],
      [students[2], 'P'],
    ]);
    const again = await w.take(eventId, { marks: [], markRest: 'E' }, place.token);
    expect(again.body.changed).toBe(0);
    expect((await w.marks(eventId)).map((m) => m.status)).toEqual(['A', 'L', 'P']);
  });

  test('saving the same marks again changes nothing and records nothing', async () => {
    const { place, students, eventId } = await classNow();
    const body = { marks: [{ studentId: students[0], status: 'P' }, { studentId: students[1], status: 'L', minutesLate: 3 }] };
    await w.take(eventId, body, place.token);
    const before = { events: (await w.outbox('attendance.recorded')).length, history: (await w.history(eventId)).length };
    clock.set('2026-03-10T10:40:00Z');
    const res = await w.take(eventId, body, place.token);
    expect(res.status).toBe(200);
    expect(res.body.changed).toBe(0);
    expect(res.body.updated.at).toBe('2026-03-10T10:30:00.000Z');
    expect((await w.outbox('attendance.recorded')).length).toBe(before.events);
    expect((await w.history(eventId)).length).toBe(before.history);
  });

  test('a change is kept in the history (who, when, from → to); an admin may change it too', async () => {
    const { place, students, eventId } = await classNow();
    await w.take(eventId, { marks: [{ studentId: students[0], status: 'A' }] }, place.token);
    clock.set('2026-03-10T12:00:00Z');
    const res = await w.take(eventId, { marks: [{ studentId: students[0], status: 'E', remark: 'doctor' }] }, adminToken);
    expect(res.status).toBe(200);
    const history = await w.api().get(`/api/v2/attendance/events/${eventId}/history`).set(place.token);
    expect(history.status).toBe(200);
    expect(history.body.data).toEqual([
      { studentId: students[0], from: { status: null, minutesLate: null, remark: null }, to: { status: 'A', minutesLate: null, remark: null }, byUserId: place.userId, at: '2026-03-10T10:30:00.000Z' },
      { studentId: students[0], from: { status: 'A', minutesLate: null, remark: null }, to: { status: 'E', minutesLate: null, remark: 'doctor' }, byUserId: ADMIN_USER_ID, at: '2026-03-10T12:00:00.000Z' },
    ]);
  });

  test('another teacher gets 403 NOT_EVENT_TEACHER and nothing is written', async () => {
    const { students, eventId } = await classNow();
    const other = await w.place();
    const res = await w.take(eventId, { marks: [{ studentId: students[0], status: 'P' }] }, other.token);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('NOT_EVENT_TEACHER');
    expect(await w.marks(eventId)).toEqual([]);
  });

  test('students not on the roster: 400 naming them, nothing written', async () => {
    const { place, students, eventId } = await classNow();
    const [outsider] = await w.students(1, place);
    const res = await w.take(eventId, { marks: [{ studentId: students[0], status: 'P' }, { studentId: outsider, status: 'P' }] }, place.token);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('STUDENTS_NOT_ON_ROSTER');
    expect(res.body.message).toContain(String(outsider));
    expect(res.body.details).toEqual({ studentIds: [outsider] });
    expect(await w.marks(eventId)).toEqual([]);
  });

  test.each([
    ['a status not in the set', 'UNKNOWN_ATTENDANCE_STATUS', (s: number) => ({ marks: [{ studentId: s, status: 'X' }] })],
    ['a markRest not in the set', 'UNKNOWN_ATTENDANCE_STATUS', () => ({ marks: [], markRest: 'Z' })],
    ['minutesLate negative', 'VALIDATION_ERROR', (s: number) => ({ marks: [{ studentId: s, status: 'L', minutesLate: -1 }] })],
    ['minutesLate over the class length', 'MINUTES_LATE_OVER_CLASS_LENGTH', (s: number) => ({ marks: [{ studentId: s, status: 'L', minutesLate: 61 }] })],
    ['a student id that is not an id', 'VALIDATION_ERROR', () => ({ marks: [{ studentId: 'abc', status: 'P' }] })],
    ['a student marked twice', 'VALIDATION_ERROR', (s: number) => ({ marks: [{ studentId: s, status: 'P' }, { studentId: s, status: 'A' }] })],
    ['an unknown field', 'VALIDATION_ERROR', (s: number) => ({ marks: [{ studentId: s, status: 'P' }], everyone: true })],
    ['no marks at all', 'VALIDATION_ERROR', () => ({})],
    ['a lower-case status', 'VALIDATION_ERROR', (s: number) => ({ marks: [{ studentId: s, status: 'p' }] })],
  ])('%s: 400 %s, nothing written', async (_name, code, body) => {
    const { place, students, eventId } = await classNow();
    const res = await w.take(eventId, body(students[0]!), place.token);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(code);
    expect(await w.marks(eventId)).toEqual([]);
  });

  test.each(['abc', '0', '-3', '1.5', '1e3'])('event id %s: 400', async (id) => {
    const res = await w.api().put(`/api/v2/attendance/events/${id}`).set(adminToken).send({ marks: [] });
    expect(res.status).toBe(400);
  });

  test('an unknown class: 404 EVENT_NOT_FOUND', async () => {
    const res = await w.take(2_000_000_000, { marks: [] }, adminToken);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('EVENT_NOT_FOUND');
  });

  test('from 15 minutes before the class; earlier (a future class) is 400 CLASS_NOT_STARTED for the teacher and the admin', async () => {
    const { place, students, eventId } = await classNow();
    clock.set('2026-03-10T09:44:59Z');
    for (const token of [place.token, adminToken]) {
      const early = await w.take(eventId, { marks: [{ studentId: students[0], status: 'P' }] }, token);
      expect(early.status).toBe(400);
      expect(early.body.code).toBe('CLASS_NOT_STARTED');
    }
    clock.set('2026-03-10T09:45:00Z');
    expect((await w.take(eventId, { marks: [{ studentId: students[0], status: 'P' }] }, place.token)).status).toBe(200);
  });

  test('a deleted (cancelled) class: 404, nothing written', async () => {
    const { place, students, eventId } = await classNow();
    expect((await w.api().delete(`/api/v2/calendar-events/${eventId}`).set(adminToken)).status).toBe(200);
    const res = await w.take(eventId, { marks: [{ studentId: students[0], status: 'P' }] }, place.token);
    expect(res.status).toBe(404);
  });

  describe('the teacher may change it until ATTENDANCE_EDIT_DAYS (7) academy days after the class; admins any time', () => {
    async function lockCase(startsAt: string, endsAt: string, open: string, locked: string) {
      const place = await w.place();
      const students = await w.students(1, place);
      const eventId = await w.event(place, startsAt, endsAt, students);
      clock.set(open);
      expect((await w.take(eventId, { marks: [{ studentId: students[0], status: 'P' }] }, place.token)).status).toBe(200);
      clock.set(locked);
      const late = await w.take(eventId, { marks: [{ studentId: students[0], status: 'A' }] }, place.token);
      expect(late.status).toBe(403);
      expect(late.body.code).toBe('ATTENDANCE_LOCKED');
      expect((await w.marks(eventId))[0]!.status).toBe('P');
      expect((await w.take(eventId, { marks: [{ studentId: students[0], status: 'A' }] }, adminToken)).status).toBe(200);
    }

    test('a winter class: open until the end of its day + 7 in Madrid (23:00Z), locked after', () =>
      lockCase('2026-03-02T16:00:00Z', '2026-03-02T17:00:00Z', '2026-03-09T22:59:59Z', '2026-03-09T23:00:00Z'));

    test('across the spring DST change: a Saturday class before it locks at midnight CEST (22:00Z) of the next Saturday', () =>
      lockCase('2026-03-28T17:00:00Z', '2026-03-28T18:00:00Z', '2026-04-04T21:59:59Z', '2026-04-04T22:00:00Z'));

    test('across the autumn DST change: a class in CEST locks at midnight CET (23:00Z) seven days later', () =>
      lockCase('2026-10-18T16:00:00Z', '2026-10-18T18:00:00Z', '2026-10-25T22:59:59Z', '2026-10-25T23:00:00Z'));

    test('a class ending after midnight counts from the day it ends', () =>
      // 23:30–01:30 Madrid (CEST), 10→11 May: open until 19 May 00:00 local.
      lockCase('2026-05-10T21:30:00Z', '2026-05-10T23:30:00Z', '2026-05-18T21:59:59Z', '2026-05-18T22:00:00Z'));
  });

  test('the teacher and an admin saving at once lose no mark, and both saves are in the history', async () => {
    const place = await w.place();
    const students = await w.students(20, place);
    clock.set('2026-03-10T10:30:00Z');
    const eventId = await w.event(place, '2026-03-10T10:00:00Z', '2026-03-10T11:00:00Z', students);
    const half = students.slice(0, 10);
    const rest = students.slice(10);
    const [byTeacher, byAdmin] = await Promise.all([
      w.take(eventId, { marks: half.map((studentId) => ({ studentId, status: 'P' })) }, place.token),
      w.take(eventId, { marks: [...rest.map((studentId) => ({ studentId, status: 'A' })), { studentId: half[0], status: 'L', minutesLate: 2 }] }, adminToken),
    ]);
    expect([byTeacher.status, byAdmin.status]).toEqual([200, 200]);
    const marks = await w.marks(eventId);
    expect(marks).toHaveLength(20);
    expect(marks.filter((m) => rest.includes(m.studentId)).every((m) => m.status === 'A')).toBe(true);
    const history = await w.history(eventId);
    expect(history.filter((h) => h.by === place.userId).length).toBeGreaterThanOrEqual(9);
    expect(history.filter((h) => h.by === ADMIN_USER_ID)).toHaveLength(11);
    // The last write of the student both marked is the mark, and the history shows both.
    const first = history.filter((h) => h.studentId === half[0]);
    expect(first.map((h) => h.toStatus).at(-1)).toBe(marks.find((m) => m.studentId === half[0])!.status);
    expect(new Set(first.map((h) => h.toStatus))).toEqual(new Set(['P', 'L']));
  });

  test('a teacher token without an employee: 403', async () => {
    const { students, eventId } = await classNow();
    const res = await w.take(eventId, { marks: [{ studentId: students[0], status: 'P' }] }, bearer({ role: 'user', sub: '777' }));
    expect(res.status).toBe(403);
  });
});
