import { describe, expect, test } from '@jest/globals';
import { adminToken, useAttendance } from './attendance-support.ts';

// The timetable incidents replicates: every change of a class is a calendar-event.* event in the
// outbox, written in the change's transaction.
describe('calendar-event.created / updated / deleted', () => {
  const { world: w } = useAttendance('2026-03-10T10:30:00Z');
  const ofEvent = (id: number) => `(envelope->'data'->>'id')::int = ${id}`;

  test('creating, moving and deleting a class records each change with its whole state', async () => {
    const place = await w.place();
    const created = await w.api().post('/api/v2/calendar-events').set(adminToken).send({
      subjectId: place.subjectId,
      centerId: place.centerId,
      employeeId: place.employeeId,
      startsAt: '2026-03-29T08:00:00Z',
      endsAt: '2026-03-29T09:30:00Z',
    });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    expect(await w.outbox('calendar-event.created', ofEvent(id))).toEqual([
      { id, subjectId: place.subjectId, centerId: place.centerId, employeeId: place.employeeId, startsAt: '2026-03-29T08:00:00.000Z', endsAt: '2026-03-29T09:30:00.000Z' },
    ]);

    expect((await w.api().patch(`/api/v2/calendar-events/${id}`).set(adminToken).send({ startsAt: '2026-03-29T10:00:00Z', endsAt: '2026-03-29T11:00:00Z' })).status).toBe(200);
    // A title is not part of the timetable: no event.
    expect((await w.api().patch(`/api/v2/calendar-events/${id}`).set(adminToken).send({ title: 'Renamed' })).status).toBe(200);
    expect(await w.outbox('calendar-event.updated', ofEvent(id))).toEqual([
      { id, subjectId: place.subjectId, centerId: place.centerId, employeeId: place.employeeId, startsAt: '2026-03-29T10:00:00.000Z', endsAt: '2026-03-29T11:00:00.000Z' },
    ]);

    expect((await w.api().delete(`/api/v2/calendar-events/${id}`).set(adminToken)).status).toBe(200);
    expect(await w.outbox('calendar-event.deleted', ofEvent(id))).toEqual([{ id }]);
  });

  test('a refused change records nothing', async () => {
    const place = await w.place();
    const eventId = await w.event(place, '2026-03-10T10:00:00Z', '2026-03-10T11:00:00Z', []);
    const refused = await w.api().patch(`/api/v2/calendar-events/${eventId}`).set(adminToken).send({ endsAt: '2026-03-10T09:00:00Z' });
    expect(refused.status).toBe(400);
    expect(await w.outbox('calendar-event.updated', ofEvent(eventId))).toEqual([]);
  });

  test('assigning students under another teacher makes them the class teacher: calendar-event.updated', async () => {
    const place = await w.place();
    const other = await w.place();
    const [studentId] = await w.students(1, place);
    const eventId = await w.event(place, '2026-03-10T10:00:00Z', '2026-03-10T11:00:00Z', []);
    const res = await w.api().put('/api/v2/registration/assign-students-to-event').set(adminToken).send({ eventId, idsStudents: [studentId], employeeId: other.employeeId });
    expect(res.status).toBe(200);
    const events = await w.outbox<{ employeeId: number }>('calendar-event.updated', ofEvent(eventId));
    expect(events.map((event) => event.employeeId)).toEqual([other.employeeId]);
  });
});
