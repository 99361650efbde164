import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { verifyPassword } from '@academy/auth';
import { admin, useAcademic, user } from '../support.ts';

describe('admin directory', () => {
  const { service, f } = useAcademic();

  const api = () => request(service().url);
  const outbox = () => f.query<{ type: string; envelope: { version: number; data: Record<string, unknown> } }>(`select type, envelope from outbox order by id`);

  test('users: create hashes the password, e-mail is unique (409), update and deactivate', async () => {
    const created = await api().post('/api/v2/users').set(admin).send({ email: 'New.User@Academy.local', password: 'secret123', role: 'user' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email: 'new.user@academy.local', role: 'user', active: true });
    expect(created.body.passwordHash).toBeUndefined();
    const [row] = await f.query<{ password_hash: string }>(`select password_hash from users where id = ?`, [created.body.id]);
    expect(await verifyPassword('secret123', row.password_hash)).toBe(true);
    expect((await api().post('/api/v2/users').set(admin).send({ email: 'new.user@academy.local', password: 'secret123', role: 'user' })).status).toBe(409);
    const updated = await api().patch(`/api/v2/users/${created.body.id}`).set(admin).send({ role: 'admin' });
    expect(updated.body.role).toBe('admin');
    const deactivated = await api().delete(`/api/v2/users/${created.body.id}`).set(admin);
    expect(deactivated.body.active).toBe(false);
    expect(await f.query(`select role, active from users where id = ?`, [created.body.id])).toEqual([{ role: 'admin', active: false }]);
  });

  test('employees: create, update and delete record employee.upserted / employee.deleted in the outbox in the same transaction', async () => {
    const login = await api().post('/api/v2/users').set(admin).send({ email: 'teacher.x@academy.local', password: 'secret123', role: 'user' });
    const created = await api().post('/api/v2/employees').set(admin).send({ name: 'Marta', lastname: 'Ruiz', email: 'marta@academy.local', userId: login.body.id });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const [linked] = await f.query<{ employee_id: number }>(`select employee_id from users where id = ?`, [login.body.id]);
    expect(linked.employee_id).toBe(id);
    await api().patch(`/api/v2/employees/${id}`).set(admin).send({ lastname: 'Ruiz Gómez' }).expect(200);
    await api().delete(`/api/v2/employees/${id}`).set(admin).expect(200);
    const events = (await outbox()).filter((e) => e.envelope.data.id === id && e.type.startsWith('employee.'));
    expect(events.map((e) => [e.type, e.envelope.data])).toEqual([
      ['employee.upserted', { id, userId: login.body.id, name: 'Marta Ruiz', email: 'marta@academy.local', active: true, taxIdDigest: null, payrollCode: null }],
      ['employee.upserted', { id, userId: login.body.id, name: 'Marta Ruiz Gómez', email: 'marta@academy.local', active: true, taxIdDigest: null, payrollCode: null }],
      ['employee.deleted', { id }],
    ]);
    const read = await api().get(`/api/v2/employees/${id}`).set(admin);
    expect(read.body.active).toBe(false);
  });

  test('linking a user to an employee from the user side keeps both links and announces the employee', async () => {
    const employee = await api().post('/api/v2/employees').set(admin).send({ name: 'Jorge', lastname: 'Vidal' });
    const first = await api().post('/api/v2/users').set(admin).send({ email: 'jorge@academy.local', password: 'secret123', role: 'user', employeeId: employee.body.id });
    expect(first.body.employeeId).toBe(employee.body.id);
    expect((await api().get(`/api/v2/employees/${employee.body.id}`).set(admin)).body.userId).toBe(first.body.id);
    // Another login cannot take the employee over silently: 409, nothing changes (unlink the first user first).
    const second = await api().post('/api/v2/users').set(admin).send({ email: 'jorge2@academy.local', password: 'secret123', role: 'user', employeeId: employee.body.id });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('EMPLOYEE_ALREADY_LINKED');
    expect((await api().get('/api/v2/users').query({ search: 'jorge2' }).set(admin)).body.data).toHaveLength(0);
    const other = await api().post('/api/v2/users').set(admin).send({ email: 'jorge3@academy.local', password: 'secret123', role: 'user' });
    const moved = await api().patch(`/api/v2/users/${other.body.id}`).set(admin).send({ employeeId: employee.body.id });
    expect(moved.status).toBe(409);
    expect((await api().get(`/api/v2/users/${first.body.id}`).set(admin)).body.employeeId).toBe(employee.body.id);
    expect((await api().get(`/api/v2/users/${other.body.id}`).set(admin)).body.employeeId).toBeNull();
    expect((await api().get(`/api/v2/employees/${employee.body.id}`).set(admin)).body.userId).toBe(first.body.id);
    // Unlinked first, the employee can be linked to the other user.
    expect((await api().patch(`/api/v2/users/${first.body.id}`).set(admin).send({ employeeId: null })).status).toBe(200);
    expect((await api().patch(`/api/v2/users/${other.body.id}`).set(admin).send({ employeeId: employee.body.id })).body.employeeId).toBe(employee.body.id);
    const userIds = (await outbox()).filter((e) => e.type === 'employee.upserted' && e.envelope.data.id === employee.body.id).map((e) => e.envelope.data.userId);
    expect(userIds).toEqual([null, first.body.id, null, other.body.id]);
  });

  test('a refused employee change records no event', async () => {
    const before = (await outbox()).length;
    expect((await api().post('/api/v2/employees').set(admin).send({ name: 'X', lastname: 'Y', userId: 2_000_000_000 })).status).toBe(404);
    expect((await api().patch('/api/v2/employees/2000000000').set(admin).send({ name: 'X' })).status).toBe(404);
    expect((await api().post('/api/v2/employees').set(admin).send({ name: 'X', lastname: 'Y', salary: 1 })).status).toBe(400);
    expect((await outbox()).length).toBe(before);
  });

  test('students and guardians: e-mail absent or a placeholder, guardian link, paginated search', async () => {
    const guardian = await api().post('/api/v2/guardians').set(admin).send({ name: 'Pilar', lastname: 'Soto', email: 'pilar@example.com' });
    expect(guardian.status).toBe(201);
    const withGuardian = await api().post('/api/v2/students').set(admin).send({ name: 'Irene', lastname: 'Soto', guardianId: guardian.body.id });
    expect(withGuardian.body).toMatchObject({ email: null, guardianId: guardian.body.id, status: 'active' });
    const placeholder = await api().post('/api/v2/students').set(admin).send({ name: 'Pablo', lastname: 'Soto', email: 'sin-email-7@placeholder.invalid' });
    expect(placeholder.status).toBe(201);
    expect((await api().post('/api/v2/students').set(admin).send({ name: 'P', lastname: 'S', guardianId: 2_000_000_000 })).status).toBe(404);
    expect((await api().post('/api/v2/students').set(admin).send({ name: 'P\u0000', lastname: 'S' })).status).toBe(400);
    const page = await api().get('/api/v2/students').query({ search: 'soto', limit: 1 }).set(admin);
    expect(page.body.meta).toEqual({ totalItems: 2, totalPages: 2, currentPage: 1, pageSize: 1 });
    expect(page.body.data[0].id).toBe(placeholder.body.id);
    const inactive = await api().delete(`/api/v2/students/${placeholder.body.id}`).set(admin);
    expect(inactive.body.status).toBe('inactive');
  });

  test('subjects keep their ordered blocks; updating the list renames by position, adds and removes', async () => {
    const created = await api().post('/api/v2/subjects').set(admin).send({ name: 'Biología', blocks: ['Célula', 'Genética', 'Evolución'] });
    expect(created.status).toBe(201);
    expect(created.body.blocks.map((b: { name: string; position: number }) => [b.position, b.name])).toEqual([
      [1, 'Célula'],
      [2, 'Genética'],
      [3, 'Evolución'],
    ]);
    const firstBlockId = created.body.blocks[0].id;
    const updated = await api().patch(`/api/v2/subjects/${created.body.id}`).set(admin).send({ blocks: ['La célula', 'Genética'] });
    expect(updated.body.blocks.map((b: { id: number; name: string }) => b.name)).toEqual(['La célula', 'Genética']);
    expect(updated.body.blocks[0].id).toBe(firstBlockId);
    const extended = await api().patch(`/api/v2/subjects/${created.body.id}`).set(admin).send({ blocks: ['La célula', 'Genética', 'Ecología'] });
    expect(extended.body.blocks.map((b: { id: number; name: string; position: number }) => [b.position, b.name])).toEqual([
      [1, 'La célula'],
      [2, 'Genética'],
      [3, 'Ecología'],
    ]);
    expect(extended.body.blocks.slice(0, 2).map((b: { id: number }) => b.id)).toEqual(updated.body.blocks.map((b: { id: number }) => b.id));
    expect((await api().post('/api/v2/subjects').set(admin).send({ name: 'Biología' })).status).toBe(409);
  });

  test('centers, registrations and calendar events: CRUD with references checked', async () => {
    const center = await api().post('/api/v2/centers').set(admin).send({ name: 'Centro Este', address: 'Calle Sol 3' });
    expect(center.status).toBe(201);
    const subjectId = await f.subject();
    const courseId = await f.course('2026-09-01');
    const studentId = await f.student();
    const employeeId = await f.employee();
    const registration = await api().post('/api/v2/registrations').set(admin).send({ studentId, schoolCourseId: courseId, subjectId, centerId: center.body.id });
    expect(registration.status).toBe(201);
    expect(registration.body.status).toBe('pending');
    expect((await api().post('/api/v2/registrations').set(admin).send({ studentId, schoolCourseId: courseId, subjectId, centerId: center.body.id })).status).toBe(409);
    expect((await api().post('/api/v2/registrations').set(admin).send({ studentId, schoolCourseId: courseId, subjectId: 2_000_000_000, centerId: center.body.id })).status).toBe(404);
    const activated = await api().patch(`/api/v2/registrations/${registration.body.id}`).set(admin).send({ status: 'active' });
    expect(activated.body.status).toBe('active');
    const filtered = await api().get('/api/v2/registrations').query({ studentId }).set(admin);
    expect(filtered.body.data.map((r: { id: number }) => r.id)).toEqual([registration.body.id]);

    const event = await api()
      .post('/api/v2/calendar-events')
      .set(admin)
      .send({ subjectId, centerId: center.body.id, employeeId, startsAt: '2026-11-23T09:00:00Z', endsAt: '2026-11-23T10:30:00Z' });
    expect(event.status).toBe(201);
    expect((await api().post('/api/v2/calendar-events').set(admin).send({ subjectId, centerId: center.body.id, startsAt: '2026-11-23T09:00:00Z', endsAt: '2026-11-23T08:00:00Z' })).status).toBe(400);
    expect((await api().patch(`/api/v2/calendar-events/${event.body.id}`).set(admin).send({ endsAt: '2026-11-23T08:00:00Z' })).status).toBe(400);
    await request(service().url).put('/api/v2/registration/assign-students-to-event').set(admin).send({ eventId: event.body.id, idsStudents: [studentId] }).expect(200);
    const read = await api().get(`/api/v2/calendar-events/${event.body.id}`).set(admin);
    expect(read.body.studentCount).toBe(1);
    expect((await api().delete(`/api/v2/calendar-events/${event.body.id}`).set(admin)).status).toBe(200);
    expect(await f.query(`select 1 from event_students where event_id = ?`, [event.body.id])).toHaveLength(0);
    expect((await api().delete(`/api/v2/registrations/${registration.body.id}`).set(admin)).status).toBe(200);
  });

  test.each(['/api/v2/users', '/api/v2/employees', '/api/v2/students', '/api/v2/guardians', '/api/v2/subjects', '/api/v2/centers', '/api/v2/registrations', '/api/v2/calendar-events'])(
    '%s: a user gets 403, no token 401, bad ids 400, unknown ids 404, a bad page or limit 400 naming it',
    async (path) => {
      expect((await api().get(path).set(user)).status).toBe(403);
      expect((await api().post(path).set(user).send({})).status).toBe(403);
      expect((await api().delete(`${path}/1`).set(user)).status).toBe(403);
      expect((await api().get(path)).status).toBe(401);
      for (const id of ['0', '-1', '1.5', 'abc', '99999999999']) expect((await api().get(`${path}/${id}`).set(admin)).status).toBe(400);
      expect((await api().get(`${path}/2000000000`).set(admin)).status).toBe(404);
      expect((await api().patch(`${path}/1`).set(admin).send({})).status).toBe(400);
      const list = await api().get(path).query({ page: -1, limit: 1_000_000 }).set(admin);
      expect([list.status, list.body.details?.map((detail: { path: string }) => detail.path)]).toEqual([400, ['page', 'limit']]);
      expect((await api().get(path).query({ page: 2, limit: 100 }).set(admin)).body.meta).toMatchObject({ currentPage: 2, pageSize: 100 });
    },
  );
});
