import { beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { pgArray } from '@academy/db';
import { bearer } from '@academy/testing';
import { admin, useAcademic, user } from '../support.ts';

const PATH = '/api/v2/registration/assign-students-to-event';

describe('PUT /api/v2/registration/assign-students-to-event', () => {
  const { service, f } = useAcademic();
  let courseId: number;

  beforeAll(async () => {
    await f.course('2025-09-01');
    courseId = await f.course('2026-09-01');
  });

  /** An event with its own subject, center and teacher, and students registered with the given statuses. */
  async function scene(statuses: string[]) {
    const subjectId = await f.subject();
    const centerId = await f.center();
    const employeeId = await f.employee();
    const eventId = await f.event({ subjectId, centerId, employeeId });
    const students: number[] = [];
    for (const status of statuses) {
      const studentId = await f.student();
      await f.registration({ studentId, courseId, subjectId, centerId, status });
      students.push(studentId);
    }
    return { subjectId, centerId, employeeId, eventId, students };
  }
  const assign = (body: unknown, auth = admin) => request(service().url).put(PATH).set(auth).send(body as object);
  const eventStudents = async (eventId: number) =>
    (await f.query<{ student_id: number }>(`select student_id from event_students where event_id = ? order by student_id`, [eventId])).map((row) => row.student_id);
  const registrationTeachers = async (studentIds: number[], subjectId: number) =>
    f.query<{ student_id: number; employee_id: number | null }>(
      `select student_id, employee_id from registrations where subject_id = ? and student_id = any(?::int[]) order by student_id`,
      [subjectId, pgArray(studentIds)],
    );

  test('assigns the desired students and answers their ids with status success', async () => {
    const s = await scene(['active', 'active']);
    const res = await assign({ eventId: s.eventId, employeeId: s.employeeId, subjectId: s.subjectId, centerId: s.centerId, idsStudents: s.students });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'success',
      data: { eventId: s.eventId, employeeId: s.employeeId, assignedStudents: s.students, removedStudents: [], rejectedStudents: [] },
    });
    expect(await eventStudents(s.eventId)).toEqual(s.students);
  });

  test('rule 1: a pending registration is never assigned; it is rejected with the reason and the answer is still 200', async () => {
    const s = await scene(['active', 'pending']);
    const [active, pending] = s.students;
    const res = await assign({ eventId: s.eventId, idsStudents: [active, pending] });
    expect(res.status).toBe(200);
    expect(res.body.data.assignedStudents).toEqual([active]);
    expect(res.body.data.rejectedStudents).toEqual([{ studentId: pending, reason: 'Registration status is pending' }]);
    expect(await eventStudents(s.eventId)).toEqual([active]);
    const teachers = await registrationTeachers([pending], s.subjectId);
    expect(teachers[0].employee_id).toBeNull();
  });

  test('rule 2: students are removed whatever their registration status', async () => {
    const s = await scene(['active', 'active', 'active']);
    await assign({ eventId: s.eventId, idsStudents: s.students }).expect(200);
    // Their registrations change after assignment: one becomes pending, one is cancelled.
    await f.query(`update registrations set status = 'pending' where student_id = ?`, [s.students[0]]);
    await f.query(`update registrations set status = 'cancelled' where student_id = ?`, [s.students[1]]);
    const res = await assign({ eventId: s.eventId, idsStudents: [s.students[2]] });
    expect(res.status).toBe(200);
    expect(res.body.data.removedStudents).toEqual([s.students[0], s.students[1]]);
    expect(await eventStudents(s.eventId)).toEqual([s.students[2]]);
  });

  test('rule 3: assigned registrations get the employee; removed ones have it cleared', async () => {
    const s = await scene(['active', 'active']);
    const other = await f.employee('Other');
    await assign({ eventId: s.eventId, employeeId: String(other), idsStudents: s.students }).expect(200);
    expect(await registrationTeachers(s.students, s.subjectId)).toEqual(s.students.map((id) => ({ student_id: id, employee_id: other })));
    await assign({ eventId: s.eventId, employeeId: other, idsStudents: [s.students[1]] }).expect(200);
    expect(await registrationTeachers(s.students, s.subjectId)).toEqual([
      { student_id: s.students[0], employee_id: null },
      { student_id: s.students[1], employee_id: other },
    ]);
    const [event] = await f.query<{ employee_id: number }>(`select employee_id from calendar_events where id = ?`, [s.eventId]);
    expect(event.employee_id).toBe(other);
  });

  test('rule 4: the employee-subject relation follows the assignment', async () => {
    const s = await scene(['active']);
    const relation = () => f.query(`select employee_id from employee_subjects where subject_id = ? order by employee_id`, [s.subjectId]);
    expect(await relation()).toEqual([]);
    await assign({ eventId: s.eventId, idsStudents: s.students }).expect(200);
    expect(await relation()).toEqual([{ employee_id: s.employeeId }]);
    // Another teacher takes the class over: the first one no longer teaches the subject.
    const other = await f.employee('Next');
    await assign({ eventId: s.eventId, employeeId: other, idsStudents: s.students }).expect(200);
    expect(await relation()).toEqual([{ employee_id: other }]);
    await assign({ eventId: s.eventId, employeeId: other, idsStudents: [] }).expect(200);
    expect(await relation()).toEqual([]);
  });

  test('rule 5: PUT /api/v1/registration/update answers 410 Gone pointing at the v2 path', async () => {
    const res = await request(service().url).put('/api/v1/registration/update').set(admin).send({ eventId: 1 });
    expect(res.status).toBe(410);
    expect(res.body.status).toBe('error');
    expect(res.body.message).toContain('PUT /api/v2/registration/assign-students-to-event');
    expect(res.headers.link).toContain('/api/v2/registration/assign-students-to-event');
  });

  test('repeating the same call changes nothing and answers the same', async () => {
    const s = await scene(['active', 'active', 'pending']);
    const body = { eventId: s.eventId, idsStudents: s.students };
    const first = await assign(body).expect(200);
    const before = await f.query(`select id, employee_id, updated_at from registrations where subject_id = ? order by id`, [s.subjectId]);
    const second = await assign(body).expect(200);
    expect(second.body).toEqual(first.body);
    expect(await f.query(`select id, employee_id, updated_at from registrations where subject_id = ? order by id`, [s.subjectId])).toEqual(before);
    expect(await eventStudents(s.eventId)).toEqual(s.students.slice(0, 2));
  });

  test('concurrent calls on one event serialize and leave exactly the set of one of them', async () => {
    const s = await scene(Array.from({ length: 12 }, () => 'active'));
    const sets = [s.students.slice(0, 6), s.students.slice(4, 10), s.students.slice(8, 12), s.students.slice(0, 12)];
    const results = await Promise.all(sets.map((idsStudents) => assign({ eventId: s.eventId, idsStudents })));
    for (const res of results) expect(res.status).toBe(200);
    const final = await eventStudents(s.eventId);
    expect(sets.map((set) => JSON.stringify(set))).toContain(JSON.stringify(final));
    // Registrations agree with the final set: exactly the assigned ones carry the teacher.
    const teachers = await registrationTeachers(s.students, s.subjectId);
    expect(teachers.filter((row) => row.employee_id === s.employeeId).map((row) => row.student_id)).toEqual(final);
  });

  test('concurrent calls on two events of one subject sharing students all succeed', async () => {
    const s = await scene(Array.from({ length: 8 }, () => 'active'));
    const second = await f.event({ subjectId: s.subjectId, centerId: s.centerId, employeeId: await f.employee('Second') });
    const calls = Array.from({ length: 6 }, (_, i) => assign({ eventId: i % 2 ? s.eventId : second, idsStudents: i % 3 ? s.students : s.students.slice(2) }));
    for (const res of await Promise.all(calls)) expect(res.status).toBe(200);
  });

  test('unknown students and students not registered in the subject and center are rejected with a reason', async () => {
    const s = await scene(['active']);
    const elsewhere = await f.student();
    await f.registration({ studentId: elsewhere, courseId, subjectId: await f.subject(), centerId: s.centerId });
    const res = await assign({ eventId: s.eventId, idsStudents: [s.students[0], elsewhere, 2_000_000_000] });
    expect(res.status).toBe(200);
    expect(res.body.data.assignedStudents).toEqual([s.students[0]]);
    expect(res.body.data.rejectedStudents).toEqual([
      { studentId: elsewhere, reason: 'Student is not registered in this subject and center for the current school course' },
      { studentId: 2_000_000_000, reason: 'Student not found' },
    ]);
  });

  test('duplicates in idsStudents are ignored', async () => {
    const s = await scene(['active']);
    const res = await assign({ eventId: s.eventId, idsStudents: [s.students[0], s.students[0], s.students[0]] });
    expect(res.status).toBe(200);
    expect(res.body.data.assignedStudents).toEqual([s.students[0]]);
  });

  test('a missing eventId is 400 { status: error, message: "eventId is required" }', async () => {
    const res = await assign({ idsStudents: [1] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', message: 'eventId is required' });
  });

  test('a bad token is 401 { status: error, message: "Invalid or expired token" }; a user may assign in an event they teach', async () => {
    const res = await request(service().url).put(PATH).send({ eventId: 1, idsStudents: [] });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ status: 'error', message: 'Invalid or expired token' });
    const bad = await request(service().url).put(PATH).set('authorization', 'Bearer not-a-jwt').send({ eventId: 1, idsStudents: [] });
    expect(bad.status).toBe(401);
    const s = await scene(['active']);
    await assign({ eventId: s.eventId, idsStudents: s.students }, bearer({ role: 'user', sub: '2', employeeId: s.employeeId })).expect(200);
  });

  test.each([
    ['eventId 0', { eventId: 0, idsStudents: [] }],
    ['eventId -1', { eventId: -1, idsStudents: [] }],
    ['eventId 1.5', { eventId: 1.5, idsStudents: [] }],
    ['eventId "abc"', { eventId: 'abc', idsStudents: [] }],
    ['eventId huge', { eventId: 99_999_999_999, idsStudents: [] }],
    ['an unknown field', { eventId: 1, idsStudents: [], extra: true }],
    ['idsStudents not an array', { eventId: 1, idsStudents: '1,2' }],
    ['idsStudents missing', { eventId: 1 }],
    ['a bad student id', { eventId: 1, idsStudents: [1, 0] }],
    ['10,000 students', { eventId: 1, idsStudents: Array.from({ length: 10_000 }, (_, i) => i + 1) }],
    ['employeeId "x1"', { eventId: 1, employeeId: 'x1', idsStudents: [] }],
  ])('%s is a 400 with status error that changes nothing', async (_name, body) => {
    const s = await scene(['active']);
    await assign({ eventId: s.eventId, idsStudents: s.students }).expect(200);
    const res = await assign({ ...body, ...(typeof body.eventId === 'number' && body.eventId === 1 ? { eventId: s.eventId } : {}) });
    expect(res.status).toBe(400);
    expect(res.body.status).toBe('error');
    expect(typeof res.body.message).toBe('string');
    expect(await eventStudents(s.eventId)).toEqual(s.students);
  });

  test('an unknown event is 404; a subject or center that is not the event\'s is 400', async () => {
    const s = await scene(['active']);
    expect((await assign({ eventId: 2_000_000_000, idsStudents: [] })).status).toBe(404);
    expect((await assign({ eventId: s.eventId, subjectId: s.subjectId + 1000, idsStudents: [] })).status).toBe(400);
    expect((await assign({ eventId: s.eventId, centerId: s.centerId + 1000, idsStudents: [] })).status).toBe(400);
  });
});

describe('GET /api/v2/registration students-by-subject-and-center and students-assigned-to-event', () => {
  const { service, f } = useAcademic();

  test('lists the registered students of the latest course with fullName and registrationStatus, and the students of an event', async () => {
    const old = await f.course('2024-09-01');
    const courseId = await f.course('2026-09-01');
    const subjectId = await f.subject();
    const centerId = await f.center();
    const employeeId = await f.employee();
    const ana = await f.student('Ana', 'Núñez');
    const luis = await f.student('Luis', 'Abad');
    await f.registration({ studentId: ana, courseId, subjectId, centerId, status: 'active' });
    await f.registration({ studentId: luis, courseId, subjectId, centerId, status: 'pending' });
    await f.registration({ studentId: luis, courseId: old, subjectId, centerId, status: 'active' });
    const res = await request(service().url).get('/api/v2/registration/students-by-subject-and-center').query({ subjectId, centerId }).set(user);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    expect(res.body.data.schoolCourseId).toBe(courseId);
    expect(res.body.data.students.map((s: { fullName: string; registrationStatus: string }) => [s.fullName, s.registrationStatus])).toEqual([
      ['Luis Abad', 'pending'],
      ['Ana Núñez', 'active'],
    ]);

    const eventId = await f.event({ subjectId, centerId, employeeId });
    await request(service().url).put(PATH).set(admin).send({ eventId, idsStudents: [ana, luis] }).expect(200);
    const assigned = await request(service().url).get('/api/v2/registration/students-assigned-to-event').query({ eventId }).set(bearer({ role: 'user', sub: '2', employeeId }));
    expect(assigned.status).toBe(200);
    expect(assigned.body.data.students).toEqual([expect.objectContaining({ studentId: ana, fullName: 'Ana Núñez', registrationStatus: 'active' })]);
  });

  test('missing or bad query parameters are 400 with status error', async () => {
    const res = await request(service().url).get('/api/v2/registration/students-by-subject-and-center').query({ subjectId: 'abc' }).set(user);
    expect(res.status).toBe(400);
    expect(res.body.status).toBe('error');
    const missing = await request(service().url).get('/api/v2/registration/students-assigned-to-event').set(user);
    expect(missing.status).toBe(400);
    const unknown = await request(service().url).get('/api/v2/registration/students-assigned-to-event').query({ eventId: 2_000_000_000 }).set(user);
    expect(unknown.status).toBe(404);
    expect(unknown.body.status).toBe('error');
  });
});
