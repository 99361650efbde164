import { beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { bearer } from '@academy/testing';
import { admin, useAcademic } from '../support.ts';

const ASSIGN = '/api/v2/registration/assign-students-to-event';
const ASSIGNED = '/api/v2/registration/students-assigned-to-event';

describe('object-level authorization of event assignment', () => {
  const { service, f } = useAcademic();
  let subjectId: number;
  let centerId: number;
  let alice: number; // teaches the event
  let bob: number; // another teacher
  let carol: number; // a third employee
  let eventId: number;
  let students: number[];
  const teacher = (employeeId: number) => bearer({ role: 'user', sub: String(1000 + employeeId), employeeId });
  const assign = (auth: Record<string, string>, body: object) => request(service().url).put(ASSIGN).set(auth).send(body);
  const eventRow = async () => (await f.query<{ employee_id: number | null; n: number }>(`select employee_id, (select count(*)::int from event_students where event_id = e.id) as n from calendar_events e where id = ?`, [eventId]))[0];

  beforeAll(async () => {
    const courseId = await f.course('2026-09-01');
    subjectId = await f.subject();
    centerId = await f.center();
    [alice, bob, carol] = [await f.employee('Alice'), await f.employee('Bob'), await f.employee('Carol')];
    eventId = await f.event({ subjectId, centerId, employeeId: alice });
    students = [await f.student(), await f.student()];
    for (const studentId of students) await f.registration({ studentId, courseId, subjectId, centerId, status: 'active' });
    await assign(admin, { eventId, idsStudents: students }).expect(200);
  });

  test('a teacher cannot reassign another teacher’s event, nor empty it: 403 and nothing changes', async () => {
    const reassign = await assign(teacher(bob), { eventId, employeeId: carol, idsStudents: students });
    expect(reassign.status).toBe(403);
    expect(reassign.body).toMatchObject({ status: 'error', code: 'NOT_EVENT_TEACHER' });
    const empty = await assign(teacher(bob), { eventId, idsStudents: [] });
    expect(empty.status).toBe(403);
    expect(await eventRow()).toEqual({ employee_id: alice, n: 2 });
  });

  test('the event’s own teacher may assign, but only themselves as employeeId', async () => {
    const other = await assign(teacher(alice), { eventId, employeeId: carol, idsStudents: students });
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ status: 'error', code: 'NOT_OWN_EMPLOYEE_ID' });
    expect((await assign(teacher(alice), { eventId, employeeId: String(alice), idsStudents: students.slice(0, 1) })).status).toBe(200);
    expect(await eventRow()).toEqual({ employee_id: alice, n: 1 });
    expect((await assign(teacher(alice), { eventId, idsStudents: students })).status).toBe(200);
  });

  test('a user without an employee cannot assign anywhere', async () => {
    expect((await assign(bearer({ role: 'user', sub: '77' }), { eventId, idsStudents: [] })).status).toBe(403);
  });

  test('an admin may assign any event to any teacher', async () => {
    expect((await assign(admin, { eventId, employeeId: bob, idsStudents: students })).status).toBe(200);
    expect(await eventRow()).toEqual({ employee_id: bob, n: 2 });
    expect((await assign(admin, { eventId, employeeId: alice, idsStudents: students })).status).toBe(200);
  });

  test('reading an event’s students: its teacher and admins, not another teacher', async () => {
    const read = (auth: Record<string, string>) => request(service().url).get(ASSIGNED).query({ eventId }).set(auth);
    expect((await read(teacher(alice))).status).toBe(200);
    expect((await read(admin)).status).toBe(200);
    const refused = await read(teacher(bob));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ status: 'error', code: 'NOT_EVENT_TEACHER' });
  });

  test('a staff employee who teaches nothing cannot be an event’s teacher (assignment or directory)', async () => {
    const [{ id: staff }] = await f.query<{ id: number }>(`insert into employees (name, lastname, kind, created_at, updated_at) values ('Sam', 'Staff', 'staff', now(), now()) returning id`);
    const viaAssignment = await assign(admin, { eventId, employeeId: staff, idsStudents: students });
    expect(viaAssignment.status).toBe(400);
    expect(viaAssignment.body).toMatchObject({ status: 'error', code: 'EMPLOYEE_NOT_A_TEACHER' });
    const created = await request(service().url)
      .post('/api/v2/calendar-events')
      .set(admin)
      .send({ subjectId, centerId, employeeId: staff, startsAt: '2026-10-01T09:00:00Z', endsAt: '2026-10-01T10:00:00Z' });
    expect(created.status).toBe(400);
    expect(created.body.code).toBe('EMPLOYEE_NOT_A_TEACHER');
    const updated = await request(service().url).patch(`/api/v2/calendar-events/${eventId}`).set(admin).send({ employeeId: staff });
    expect(updated.status).toBe(400);
    expect(await eventRow()).toEqual({ employee_id: alice, n: 2 });
  });
});

describe('inputs said plainly', () => {
  const { service } = useAcademic();

  test.each(['0x1', '1e0', '+1', '01', '%201', '1%20', '1.0'])('an id written %s is a 400 in a path', async (id) => {
    const res = await request(service().url).get(`/api/v2/users/${id}`).set(admin);
    expect(res.status).toBe(400);
  });

  test('loose ids are a 400 in queries and bodies too', async () => {
    const query = await request(service().url).get(ASSIGNED).query({ eventId: '0x1' }).set(admin);
    expect(query.status).toBe(400);
    expect(query.body.status).toBe('error');
    const body = await request(service().url).put(ASSIGN).set(admin).send({ eventId: 1, employeeId: '01', idsStudents: [] });
    expect(body.status).toBe(400);
    const stringInBody = await request(service().url).post('/api/v2/registrations').set(admin).send({ studentId: 1, schoolCourseId: '2', subjectId: 1, centerId: 1 });
    expect(stringInBody.status).toBe(400);
  });

  test('search on registrations and calendar events is a 400 (they do not filter by it), not silently ignored', async () => {
    for (const path of ['/api/v2/registrations', '/api/v2/calendar-events']) {
      const res = await request(service().url).get(path).query({ search: 'ana' }).set(admin);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.details)).toContain('search');
      expect((await request(service().url).get(path).set(admin)).status).toBe(200);
    }
  });

  test('malformed JSON on the registration routes carries their status: "error"', async () => {
    const res = await request(service().url).put(ASSIGN).set(admin).set('content-type', 'application/json').send('{"eventId": 1,');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error' });
    const v1 = await request(service().url).put('/api/v1/registration/update').set(admin).set('content-type', 'application/json').send('{');
    expect(v1.body).toMatchObject({ status: 'error' });
  });

  test('a 1,025-character password and a mistyped refreshToken say what is wrong', async () => {
    const long = await request(service().url).post('/api/v2/auth/login').send({ email: 'a@b.test', password: 'x'.repeat(1025) });
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).toContain('must be at most 1024 characters');
    expect(JSON.stringify(long.body)).not.toContain('is required');
    const number = await request(service().url).post('/api/v2/auth/refresh').send({ refreshToken: 12345 });
    expect(JSON.stringify(number.body)).toContain('must be a string');
    const misspelled = await request(service().url).post('/api/v2/auth/refresh').send({ refresh_token: 'abc' });
    expect(misspelled.status).toBe(400);
    expect(JSON.stringify(misspelled.body)).toContain('refresh_token');
    const missing = await request(service().url).post('/api/v2/auth/logout').send({});
    expect(JSON.stringify(missing.body)).toContain('is required');
  });
});
