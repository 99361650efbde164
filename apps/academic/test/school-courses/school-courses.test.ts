import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { admin, useAcademic, user } from '../support.ts';

const PATH = '/api/v2/school-courses';

describe('/api/v2/school-courses', () => {
  const { service, f } = useAcademic();

  const outbox = (type: string) => f.query<{ envelope: { data: Record<string, unknown> } }>(`select envelope from outbox where type = ? order by id`, [type]);

  // Tests run in any order (Jest's --randomize) on one database: each looks only at the courses it created, and
  // this one starts later than any other test's course left standing, so it is the latest.
  test('POST creates a course (admin), records school-course.created in the outbox, and GET marks the latest by start date', async () => {
    const later = await request(service().url).post(PATH).set(admin).send({ name: '2090-2091', startDate: '2090-09-01', endDate: '2091-06-30' });
    expect(later.status).toBe(201);
    expect(later.body).toMatchObject({ name: '2090-2091', startDate: '2090-09-01', endDate: '2091-06-30', isLatest: true });
    // Created afterwards but starting earlier: not the latest.
    const earlier = await request(service().url).post(PATH).set(admin).send({ name: '2089-2090', startDate: '2089-09-01', endDate: '2090-06-30' });
    expect(earlier.body.isLatest).toBe(false);

    const list = await request(service().url).get(PATH).set(user);
    expect(list.status).toBe(200);
    expect(list.body.latestSchoolCourseId).toBe(later.body.id);
    const ours = [later.body.id, earlier.body.id];
    expect(list.body.data.filter((c: { id: number }) => ours.includes(c.id)).map((c: { name: string; isLatest: boolean }) => [c.name, c.isLatest])).toEqual([
      ['2090-2091', true],
      ['2089-2090', false],
    ]);
    const events = (await outbox('school-course.created')).filter((e) => ours.includes(e.envelope.data.id as number));
    expect(events.map((e) => e.envelope.data)).toEqual([
      { id: later.body.id, name: '2090-2091', startDate: '2090-09-01', endDate: '2091-06-30' },
      { id: earlier.body.id, name: '2089-2090', startDate: '2089-09-01', endDate: '2090-06-30' },
    ]);
  });

  test('two courses with the same start date: the greater id is the latest', async () => {
    const a = await request(service().url).post(PATH).set(admin).send({ name: 'Tie A', startDate: '2095-09-01', endDate: '2096-06-30' });
    const b = await request(service().url).post(PATH).set(admin).send({ name: 'Tie B', startDate: '2095-09-01', endDate: '2096-06-30' });
    const list = await request(service().url).get(PATH).set(admin);
    expect(list.body.latestSchoolCourseId).toBe(Math.max(a.body.id, b.body.id));
    await request(service().url).delete(`${PATH}/${b.body.id}`).set(admin).expect(200);
    await request(service().url).delete(`${PATH}/${a.body.id}`).set(admin).expect(200);
  });

  test('DELETE of a course with registrations is 409 and deletes nothing; without them it deletes and records school-course.deleted', async () => {
    const course = await request(service().url).post(PATH).set(admin).send({ name: '2019-2020', startDate: '2019-09-01', endDate: '2020-06-30' });
    const studentId = await f.student();
    const registrationId = await f.registration({ studentId, courseId: course.body.id, subjectId: await f.subject(), centerId: await f.center() });
    const refused = await request(service().url).delete(`${PATH}/${course.body.id}`).set(admin);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('SCHOOL_COURSE_HAS_REGISTRATIONS');
    expect(refused.body.message).toMatch(/still has 1 registration/);
    expect(await f.query(`select id from school_courses where id = ?`, [course.body.id])).toHaveLength(1);

    await f.query(`delete from registrations where id = ?`, [registrationId]);
    const deleted = await request(service().url).delete(`${PATH}/${course.body.id}`).set(admin);
    expect(deleted.status).toBe(200);
    expect(await f.query(`select id from school_courses where id = ?`, [course.body.id])).toHaveLength(0);
    const events = await outbox('school-course.deleted');
    expect(events.at(-1)!.envelope.data).toEqual({ id: course.body.id });
    expect((await request(service().url).delete(`${PATH}/${course.body.id}`).set(admin)).status).toBe(404);
  });

  test('a user cannot create or delete; without a token everything is 401', async () => {
    expect((await request(service().url).post(PATH).set(user).send({ name: 'x', startDate: '2020-09-01', endDate: '2021-06-30' })).status).toBe(403);
    expect((await request(service().url).delete(`${PATH}/1`).set(user)).status).toBe(403);
    expect((await request(service().url).get(PATH)).status).toBe(401);
    expect((await request(service().url).post(PATH).send({})).status).toBe(401);
  });

  test('bad input is a 400 that creates nothing: unknown fields, bad dates, end before start, duplicate name is 409', async () => {
    await request(service().url).post(PATH).set(admin).send({ name: '2010-2011', startDate: '2010-09-01', endDate: '2011-06-30' }).expect(201);
    const before = (await f.query(`select count(*)::int as n from school_courses`))[0];
    for (const body of [
      { name: 'X', startDate: '2020-09-01', endDate: '2021-06-30', extra: 1 },
      { name: 'X', startDate: '2020-13-01', endDate: '2021-06-30' },
      { name: 'X', startDate: '2021-09-01', endDate: '2020-06-30' },
      { name: '', startDate: '2020-09-01', endDate: '2021-06-30' },
      { startDate: '2020-09-01', endDate: '2021-06-30' },
    ]) {
      expect((await request(service().url).post(PATH).set(admin).send(body)).status).toBe(400);
    }
    expect((await request(service().url).post(PATH).set(admin).send({ name: '2010-2011', startDate: '2020-09-01', endDate: '2021-06-30' })).status).toBe(409);
    expect((await f.query(`select count(*)::int as n from school_courses`))[0]).toEqual(before);
    for (const id of ['0', '-1', '1.5', 'abc', '99999999999']) expect((await request(service().url).delete(`${PATH}/${id}`).set(admin)).status).toBe(400);
  });
});
